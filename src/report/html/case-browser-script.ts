/**
 * The one inline script of the report: inflates the embedded case data (gzip, base64) and
 * pages through it. It builds
 * every node with createElement/textContent — never innerHTML — so a model output is always
 * text, whatever it contains. Plain ES2017, no library, no network.
 */
export const CASE_BROWSER_SCRIPT = String.raw`(function () {
  'use strict';
  var source = document.getElementById('case-data');
  if (!source) return;
  // Inflate the case data after the first paint: the verdict and the charts show at once,
  // the table fills a moment later.
  setTimeout(function () {
    if (typeof DecompressionStream === 'undefined') {
      document.getElementById('cb-count').textContent = 'This browser cannot read the case data (it needs DecompressionStream: Chrome 80+, Firefox 113+, Safari 16.4+); results.jsonl has it.';
      return;
    }
    var binary = atob((source.textContent || '').trim());
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text().then(function (text) { start(JSON.parse(text)); });
  }, 0);
  function start(data) {
    var arms = data.arms, rows = data.rows, roles = data.roles;
    var PAGE = 50;
    // Open rows by case id in a Map: ids are data, and '__proto__' or 'toString' must not
    // find Object.prototype (a row that opens on load and cannot be closed).
    var state = { filter: 'all', category: '', split: '', query: '', page: 0, open: new Map() };
    // A lone surrogate in an id has no URL form: links carry U+FFFD in its place (as
    // String.prototype.toWellFormed does), and ids are compared in that form.
    var wellFormed = function (s) { return s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'); };
    var idKey = function (r) { return wellFormed(r.id); };
    var $ = function (id) { return document.getElementById(id); };
    var el = function (tag, cls, text) {
      var node = document.createElement(tag);
      if (cls) node.className = cls;
      if (text !== undefined && text !== null) node.textContent = String(text);
      return node;
    };
    var passed = function (cell) { return cell !== null && cell !== undefined && cell.p > 0.5; };
    var failed = function (cell) { return cell !== null && cell !== undefined && cell.p <= 0.5; };
    var at = function (row, index) { return index >= 0 ? row.a[index] : null; };
    var FILTERS = {
      all: function () { return true; },
      lost: function (r) { return passed(at(r, roles.a)) && failed(at(r, roles.b)); },
      won: function (r) { return failed(at(r, roles.a)) && passed(at(r, roles.b)); },
      lostN: function (r) { return passed(at(r, roles.c)) && failed(at(r, roles.d)); },
      onlyN: function (r) { return failed(at(r, roles.b)) && passed(at(r, roles.d)); },
      disagree: function (r) {
        var seen = {};
        r.a.forEach(function (c) { if (c) seen[passed(c) ? 'p' : 'f'] = 1; });
        return seen.p === 1 && seen.f === 1;
      },
      allFail: function (r) { return r.a.every(function (c) { return !c || failed(c); }); },
      exhausted: function (r) { return r.a.some(function (c) { return c && c.f.indexOf('budget_exhausted') >= 0; }); }
    };

    function matchesQuery(r, q) {
      if (!q) return true;
      if (r.id.toLowerCase().indexOf(q) >= 0 || r.c.toLowerCase().indexOf(q) >= 0 || r.q.toLowerCase().indexOf(q) >= 0) return true;
      return r.a.some(function (c) { return c && c.o.some(function (o) { return o[0].toLowerCase().indexOf(q) >= 0; }); });
    }

    function visible() {
      var q = state.query.trim().toLowerCase();
      var exact = rows.filter(function (r) { return idKey(r).toLowerCase() === q; });
      if (exact.length) return exact;
      return rows.filter(function (r) {
        return FILTERS[state.filter](r) && (!state.category || r.c === state.category) && (!state.split || r.s === state.split) && matchesQuery(r, q);
      });
    }

    function outcome(cell) {
      if (!cell) return el('span', 'na', '—');
      var text = cell.p === 1 ? '✓' : cell.p === 0 ? '✗' : Math.round(cell.p * 100) + '%';
      var badge = el('span', 'badge ' + (cell.p > 0.5 ? 'pass' : 'fail'), text);
      var wrap = el('span', 'cell');
      wrap.appendChild(badge);
      wrap.appendChild(el('span', 'tok', cell.t === null ? 'unknown' : cell.t.toLocaleString('en-US')));
      if (cell.f.indexOf('budget_exhausted') >= 0) wrap.appendChild(el('span', 'flag', 'B'));
      return wrap;
    }

    function detail(r) {
      var box = el('div', 'detail');
      if (r.q) { box.appendChild(el('div', 'label', 'input')); box.appendChild(el('pre', 'text', r.q)); }
      if (r.e) { box.appendChild(el('div', 'label', 'expected')); box.appendChild(el('pre', 'text expected', r.e)); }
      var grid = el('div', 'arm-outputs');
      arms.forEach(function (arm, i) {
        var cell = r.a[i];
        if (!cell) return;
        var card = el('div', 'arm-card ' + arm.variant);
        var head = el('div', 'arm-card-head', arm.label + ' · ' + arm.arm + ' — ' + (cell.p > 0.5 ? 'pass' : 'fail') + (arm.n > 1 ? ' · any path ' + (cell.y > 0.5 ? 'passed' : 'failed') : '') + ' · ' + (cell.t === null ? 'tokens unknown' : cell.t.toLocaleString('en-US') + ' tokens') + ' · ' + cell.k + ' path' + (cell.k === 1 ? '' : 's'));
        card.appendChild(head);
        if (cell.f) card.appendChild(el('div', 'note', 'finish: ' + cell.f));
        if (cell.r) card.appendChild(el('div', 'note error', 'error: ' + cell.r));
        cell.o.forEach(function (o) {
          var line = el('div', 'output ' + (o[2] ? 'pass' : 'fail'));
          var meta = (o[3] ? 'selected · ' : '') + (o[2] ? '✓' : '✗') + (o[1] > 1 ? ' ×' + o[1] : '');
          line.appendChild(el('span', 'output-meta', meta));
          // The scored field first (what output_field read); the client's raw envelope folded under it.
          var raw = line;
          if (o[5] !== null && o[5] !== undefined) {
            line.appendChild(el('div', 'label', 'scored field (' + data.outputField + ')'));
            line.appendChild(el('pre', 'text scored', o[5] === '' ? '(empty)' : o[5]));
            raw = el('details', 'raw-output');
            raw.appendChild(el('summary', 'label', 'raw output (' + o[4].toLocaleString('en-US') + ' characters)'));
            line.appendChild(raw);
          }
          raw.appendChild(el('pre', 'text', o[0] === '' ? '(empty output)' : o[0]));
          if (o[4] > o[0].length) raw.appendChild(el('div', 'note', '… cut at ' + o[0].length.toLocaleString('en-US') + ' of ' + o[4].toLocaleString('en-US') + ' characters; the full text is in results.jsonl'));
          card.appendChild(line);
        });
        grid.appendChild(card);
      });
      box.appendChild(grid);
      return box;
    }

    function renderHead() {
      var tr = el('tr');
      ['case', 'category', 'split'].forEach(function (t) { tr.appendChild(el('th', 'txt', t)); });
      arms.forEach(function (arm) {
        var th = el('th', 'arm-col ' + arm.variant, arm.label);
        th.title = arm.arm;
        tr.appendChild(th);
      });
      $('cb-head').appendChild(tr);
    }

    function render() {
      var list = visible();
      var pages = Math.max(1, Math.ceil(list.length / PAGE));
      if (state.page >= pages) state.page = pages - 1;
      var body = $('cb-body');
      body.textContent = '';
      list.slice(state.page * PAGE, state.page * PAGE + PAGE).forEach(function (r) {
        var tr = el('tr', 'case-row');
        tr.tabIndex = 0;
        tr.appendChild(el('td', 'id txt', r.id));
        tr.appendChild(el('td', 'txt', r.c));
        tr.appendChild(el('td', 'txt', r.s));
        r.a.forEach(function (cell) { var td = el('td', 'arm-col'); td.appendChild(outcome(cell)); tr.appendChild(td); });
        var toggle = function () { state.open.set(idKey(r), !state.open.get(idKey(r))); render(); };
        tr.addEventListener('click', toggle);
        tr.addEventListener('keydown', function (e) { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); toggle(); } });
        body.appendChild(tr);
        if (state.open.get(idKey(r)) === true) {
          tr.className += ' open';
          var dtr = el('tr', 'detail-row');
          var td = el('td');
          td.colSpan = 3 + arms.length;
          td.appendChild(detail(r));
          dtr.appendChild(td);
          body.appendChild(dtr);
        }
      });
      $('cb-count').textContent = list.length.toLocaleString('en-US') + ' of ' + rows.length.toLocaleString('en-US') + ' cases';
      $('cb-page').textContent = list.length === 0 ? 'no case matches' : 'page ' + (state.page + 1) + ' of ' + pages;
      $('cb-prev').disabled = state.page === 0;
      $('cb-next').disabled = state.page >= pages - 1;
    }

    function fillSelect(id, values) {
      var select = $(id);
      values.forEach(function (v) { var o = el('option', '', v); o.value = v; select.appendChild(o); });
    }

    function fromHash() {
      var m = /^#case=(.*)$/.exec(location.hash);
      if (!m) return;
      var id;
      // A hand-edited hash may not decode ("URI malformed"): then it names no case.
      try { id = wellFormed(decodeURIComponent(m[1])); } catch (e) { return; }
      state.query = id; state.filter = 'all'; state.category = ''; state.split = ''; state.page = 0; state.open = new Map();
      state.open.set(id, true);
      $('cb-search').value = id; $('cb-filter').value = 'all'; $('cb-category').value = ''; $('cb-split').value = '';
      render();
      $('cases').scrollIntoView();
    }

    renderHead();
    fillSelect('cb-category', Array.from(new Set(rows.map(function (r) { return r.c; }).filter(Boolean))).sort());
    fillSelect('cb-split', Array.from(new Set(rows.map(function (r) { return r.s; }))).sort());
    if (roles.c < 0) { ['lostN', 'onlyN'].forEach(function (v) { var o = document.querySelector('#cb-filter option[value="' + v + '"]'); if (o) o.remove(); }); }
    $('cb-filter').addEventListener('change', function (e) { state.filter = e.target.value; state.page = 0; render(); });
    $('cb-category').addEventListener('change', function (e) { state.category = e.target.value; state.page = 0; render(); });
    $('cb-split').addEventListener('change', function (e) { state.split = e.target.value; state.page = 0; render(); });
    $('cb-search').addEventListener('input', function (e) { state.query = e.target.value; state.page = 0; render(); });
    $('cb-prev').addEventListener('click', function () { state.page -= 1; render(); });
    $('cb-next').addEventListener('click', function () { state.page += 1; render(); });
    window.addEventListener('hashchange', fromHash);
    render();
    fromHash();
    document.documentElement.setAttribute('data-cases-ready', String(rows.length));
    if (window.performance && performance.mark) performance.mark('cases-ready');
  }
})();`;
