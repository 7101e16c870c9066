/**
 * The skill `calibrate --evolve` hands the null proposer when no experiment is given: a
 * plain task description, long enough (~150 tokens) that the growth limit never binds for
 * one added line, and with no words any simulated task reads as a rule.
 */
export const NULL_SKILL = `---
name: null-skill
description: A general-purpose skill whose edits the calibration screens under the null.
version: 1
---
# Task

Read the request, work out what is being asked, and give the result in the form the request
names. When the request gives a format, follow it exactly; when it gives none, keep the result
short and plain. Use the information in the request and nothing else.

## Rules
- Give one result per request.
- Keep units and names as the request writes them.
- If the request cannot be answered, say so in one sentence.
- Do not repeat the request back.

## Notes
- These rules apply to every request the same way.
`;
