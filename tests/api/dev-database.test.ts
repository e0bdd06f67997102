import { describe, expect, it } from 'vitest';
import { TestClient } from './auth-client.ts';

const statement = (sql: string) => ({ sql });

describe('the local database route', () => {
  it('runs one statement in a local build and answers its rows', async () => {
    const local = new TestClient({ APP_ENV: 'local' });
    const inserted = await local.post<{ id: number }[]>(
      '/api/v1/dev/sql',
      statement("INSERT INTO hot_keywords (locale, keyword, sort) VALUES ('en', 'dev-route-check', 999) RETURNING id"),
    );
    expect(inserted.status).toBe(200);
    const [{ id }] = inserted.body.data;
    const read = await local.post<{ keyword: string }[]>('/api/v1/dev/sql', statement(`SELECT keyword FROM hot_keywords WHERE id = ${id}`));
    expect(read.body.data).toEqual([{ keyword: 'dev-route-check' }]);

    const wrong = await local.post('/api/v1/dev/sql', statement('SELEKT 1'));
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({
      errorCode: 'statement_failed',
      message: expect.stringMatching(/^The database refused the statement: .*syntax error/),
    });
    expect((await local.post('/api/v1/dev/sql', {})).status).toBe(400);
  });

  it('does not exist anywhere else, and changes nothing there', async () => {
    const deployed = new TestClient({ APP_ENV: 'production' });
    for (const path of ['/api/v1/dev/sql', '/api/api/v1/dev/sql']) {
      const answer = await deployed.post(path, statement("UPDATE hot_keywords SET keyword = 'changed'"));
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ errorCode: 'not_found' });
    }
    const local = new TestClient({ APP_ENV: 'local' });
    const changed = await local.post<unknown[]>('/api/v1/dev/sql', statement("SELECT 1 FROM hot_keywords WHERE keyword = 'changed'"));
    expect(changed.body.data).toEqual([]);
  });
});
