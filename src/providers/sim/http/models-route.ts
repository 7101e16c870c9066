/** `GET /v1/models` — OpenAI's list shape, with Anthropic's `type`/`display_name` per item too. */
import { SIM_MODEL_NAMES } from '../profiles.js';
import type { Route } from './route.js';
import type { ModelList } from './wire-types.js';

const CREATED = 1_767_225_600; // 2026-01-01: fixed, so the listing is reproducible

export const modelsRoute: Route = {
  method: 'GET',
  path: '/v1/models',
  protocol: 'openai',
  generates: false,
  handle: () => ({
    kind: 'json',
    status: 200,
    latencyMs: 0,
    body: {
      object: 'list' as const,
      data: SIM_MODEL_NAMES.map((id) => ({
        id, object: 'model' as const, created: CREATED, owned_by: 'isobudget-sim',
        type: 'model' as const, display_name: id, created_at: new Date(CREATED * 1000).toISOString(),
      })),
      has_more: false,
      first_id: SIM_MODEL_NAMES[0] ?? null,
      last_id: SIM_MODEL_NAMES[SIM_MODEL_NAMES.length - 1] ?? null,
    } satisfies ModelList,
  }),
};
