/**
 * The viewer's one script (inline, allowed by its hash). Small on purpose: pages are rendered
 * on the server, and the script only makes a view change one request (the grid's fragment),
 * follows live runs (server-sent events), posts review decisions with the page's token, and —
 * in the static bundle — filters the grid in the page. Text only ever enters the page as
 * server-escaped HTML or through textContent.
 */
export const VIEW_SCRIPT = `(function () {
  'use strict';
  var body = document.body;
  var live = body.getAttribute('data-mode') === 'live';

  function grid() { return document.getElementById('grid'); }
  function loadFragment(url, push) {
    var target = grid();
    if (!target) { location.href = url; return; }
    var sep = url.indexOf('?') >= 0 ? '&' : '?';
    target.setAttribute('aria-busy', 'true');
    fetch(url + sep + 'fragment=grid', { headers: { accept: 'text/html' } })
      .then(function (r) { if (!r.ok) throw new Error('HTTP ' + r.status); return r.text(); })
      .then(function (html) {
        var holder = document.createElement('div');
        holder.innerHTML = html;
        var next = holder.firstElementChild;
        if (next) target.replaceWith(next);
        if (push) history.pushState({ grid: true }, '', url);
      })
      .catch(function () { location.href = url; });
  }

  var form = document.getElementById('grid-form');
  if (form && live) {
    var submit = function (event) {
      if (event) event.preventDefault();
      var params = new URLSearchParams();
      new FormData(form).forEach(function (value, key) { if (value !== '' && !(key === 'filter' && value === 'all')) params.set(key, String(value)); });
      var text = params.toString();
      loadFragment(form.getAttribute('action') + (text ? '?' + text : ''), true);
    };
    form.addEventListener('submit', submit);
    form.addEventListener('change', function (event) { if (event.target && event.target.name === 'filter') submit(); });
    document.addEventListener('click', function (event) {
      var link = event.target && event.target.closest ? event.target.closest('a[data-page]') : null;
      if (!link) return;
      event.preventDefault();
      loadFragment(link.getAttribute('href'), true);
    });
    window.addEventListener('popstate', function () { loadFragment(location.pathname + location.search, false); });
  }

  if (form && !live) {
    var rows = Array.prototype.slice.call(document.querySelectorAll('#grid tbody tr'));
    var count = document.getElementById('grid-count');
    var apply = function (event) {
      if (event) event.preventDefault();
      var filter = form.elements.filter.value;
      var needle = form.elements.q.value.trim().toLowerCase();
      var shown = 0;
      rows.forEach(function (row) {
        var flags = ' ' + (row.getAttribute('data-f') || '') + ' ';
        var ok = (filter === 'all' || flags.indexOf(' ' + filter + ' ') >= 0) && (needle === '' || (row.getAttribute('data-s') || '').indexOf(needle) >= 0);
        row.hidden = !ok;
        if (ok) shown += 1;
      });
      if (count) count.textContent = shown + ' of ' + rows.length + ' cases';
    };
    form.addEventListener('submit', apply);
    form.addEventListener('input', apply);
    form.addEventListener('change', apply);
  }

  var liveRuns = document.querySelector('[data-live-runs]');
  if (liveRuns && live && window.EventSource) {
    var source = new EventSource('/api/events');
    source.onmessage = function (event) {
      var data;
      try { data = JSON.parse(event.data); } catch (e) { return; }
      (data.runs || []).forEach(function (run) {
        var cell = document.querySelector('[data-progress="' + CSS.escape(run.id) + '"]');
        if (cell) cell.textContent = run.progress;
        var status = document.querySelector('[data-status="' + CSS.escape(run.id) + '"]');
        if (status && status.textContent !== run.status) { status.textContent = run.status; status.className = 'badge s-' + run.status; }
      });
    };
  }

  var cards = Array.prototype.slice.call(document.querySelectorAll('.card[data-review]'));
  if (cards.length) {
    var token = (document.querySelector('meta[name="isobudget-token"]') || {}).content;
    var reviewer = document.getElementById('reviewer');
    try { if (reviewer && !reviewer.value && localStorage.getItem('isobudget-reviewer')) reviewer.value = localStorage.getItem('isobudget-reviewer'); } catch (e) {}
    var focused = 0;
    var focus = function (i) {
      if (!cards.length) return;
      focused = Math.max(0, Math.min(cards.length - 1, i));
      cards.forEach(function (c, j) { c.classList.toggle('focused', j === focused); });
      cards[focused].focus();
    };
    var decide = function (card, decision) {
      var out = card.querySelector('.outcome');
      if (!token) { out.textContent = 'read-only: decide with isobudget review --decide'; return; }
      var who = reviewer ? reviewer.value.trim() : '';
      if (!who) { out.textContent = 'enter a reviewer name first'; if (reviewer) reviewer.focus(); return; }
      try { localStorage.setItem('isobudget-reviewer', who); } catch (e) {}
      var note = card.querySelector('textarea');
      card.querySelectorAll('button').forEach(function (b) { b.disabled = true; });
      out.textContent = decision === 'approve' ? 'approving…' : 'rejecting…';
      fetch('/api/review/' + encodeURIComponent(card.getAttribute('data-review')), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-isobudget-token': token },
        body: JSON.stringify({ decision: decision, reviewer: who, note: note && note.value.trim() ? note.value.trim() : null })
      }).then(function (r) { return r.json().then(function (j) { return { ok: r.ok, body: j }; }); })
        .then(function (res) {
          out.textContent = res.ok ? res.body.message : 'not recorded: ' + res.body.error;
          card.setAttribute('data-decided', res.ok ? decision : '');
          if (!res.ok) card.querySelectorAll('button').forEach(function (b) { b.disabled = false; });
        })
        .catch(function (e) { out.textContent = 'not recorded: ' + e.message; card.querySelectorAll('button').forEach(function (b) { b.disabled = false; }); });
    };
    cards.forEach(function (card, i) {
      card.addEventListener('focus', function () { focused = i; cards.forEach(function (c, j) { c.classList.toggle('focused', j === i); }); });
      card.querySelectorAll('button[data-decision]').forEach(function (button) {
        button.addEventListener('click', function () { decide(card, button.getAttribute('data-decision')); });
      });
    });
    document.addEventListener('keydown', function (event) {
      var tag = event.target && event.target.tagName;
      if (tag === 'INPUT' || tag === 'TEXTAREA' || event.metaKey || event.ctrlKey || event.altKey) return;
      if (event.key === 'j') { focus(focused + 1); event.preventDefault(); }
      else if (event.key === 'k') { focus(focused - 1); event.preventDefault(); }
      else if (event.key === 'a') { decide(cards[focused], 'approve'); event.preventDefault(); }
      else if (event.key === 'r') { decide(cards[focused], 'reject'); event.preventDefault(); }
    });
    focus(0);
  }
})();
`;
