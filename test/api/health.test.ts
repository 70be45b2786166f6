import { describe, expect, it } from 'vitest';
import { type Harness, harness } from './harness.js';

describe('GET /client/v4/health', () => {
  it('answers without credentials while the database answers, and 503 (10503) once it does not', async () => {
    const h: Harness = await harness();
    try {
      const ok = await h.call({ url: '/client/v4/health', auth: false });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ success: true, result: { status: 'ok', database: h.store.kind } });
      await h.store.close();
      const down = await h.call({ url: '/client/v4/health', auth: false });
      expect(down.status).toBe(503);
      expect(down.body.success).toBe(false);
      expect(down.body.errors[0]).toMatchObject({ code: 10503 });
      expect(down.body.errors[0]?.message).toMatch(/^the database does not answer: /);
    } finally {
      await h.close();
    }
  });
});
