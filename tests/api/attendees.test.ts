import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_ATTENDEES } from '../../src/lib/services/accounts/attendees.ts';
import { signedInClient, TestClient } from './auth-client.ts';
import { seed } from './helpers.ts';

const hongKonger = { name: 'Chan Tai Man', nationality: 'HK', idCardType: 'id_card', idCardNo: 'A123456(3)' };

const signedIn = () => signedInClient('attendees');

beforeAll(async () => {
  await seed();
});

describe('attendees', () => {
  it('needs a session', async () => {
    expect((await new TestClient().post('/api/v1/attendees', hongKonger)).status).toBe(401);
  });

  it('creates, lists masked, reads in full for the owner, edits and deletes', async () => {
    const client = await signedIn();
    const created = await client.post<{ id: number; idCardNo: string }>('/api/v1/attendees', { ...hongKonger, idCardNo: ' a123456(3) ' });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ name: 'Chan Tai Man', nationality: 'HK', idCardType: 'id_card', idCardNo: 'A1******3)' });
    const { id } = created.body.data;

    const listed = await client.call('/api/api/v1/attendees', { headers: { language: 'zh-HK' } });
    expect(listed.body.data).toEqual([
      {
        id,
        name: 'Chan Tai Man',
        nationality: 'HK',
        nationalityName: expect.stringContaining('香港'),
        idCardType: 'id_card',
        idCardNo: 'A1******3)',
      },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain('123456');

    expect((await client.call(`/api/v1/attendees/${id}`)).body.data).toMatchObject({ idCardNo: 'A123456(3)' });

    const edited = await client.call(`/api/v1/attendees/${id}`, {
      method: 'PUT',
      body: { name: 'Wang Xiaoming', nationality: 'CN', idCardType: 'id_card', idCardNo: '11010519491231002x' },
    });
    expect(edited.body.data).toMatchObject({ id, name: 'Wang Xiaoming', nationality: 'CN', idCardNo: '11**************2X' });

    expect((await client.call(`/api/v1/attendees/${id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await client.call<unknown[]>('/api/v1/attendees')).body.data).toEqual([]);
  });

  it("answers every field problem with the spec's message and the field, and saves nothing", async () => {
    const client = await signedIn();
    const cases: [Partial<typeof hongKonger>, string, string, string][] = [
      [{ name: '', nationality: '', idCardNo: '' }, 'required_info_empty', 'name', 'Required info cannot be empty'],
      [{ name: ' ' }, 'name_required', 'name', 'Please fill in the name'],
      [{ nationality: '' }, 'nationality_required', 'nationality', 'Please select the nationality'],
      [{ idCardType: '' }, 'id_type_required', 'idCardType', 'Please select the ID type'],
      [{ idCardNo: '' }, 'id_number_required', 'idCardNo', 'Please enter the ID number'],
      [{ idCardNo: 'A123456(4)' }, 'id_number_invalid', 'idCardNo', 'Incorrect ID number format'],
      [{ nationality: 'TW', idCardNo: 'A123456788' }, 'id_number_invalid', 'idCardNo', 'Incorrect ID number format'],
      [{ idCardType: 'passport', idCardNo: 'K1' }, 'id_number_invalid', 'idCardNo', 'Incorrect ID number format'],
    ];
    for (const [change, errorCode, field, message] of cases) {
      const answer = await client.post('/api/v1/attendees', { ...hongKonger, ...change });
      expect(answer.body).toMatchObject({ code: 400, errorCode, field, message });
    }
    const chinese = await client.call('/api/v1/attendees', {
      method: 'POST',
      body: { ...hongKonger, idCardNo: 'A123456(4)' },
      headers: { language: 'zh-HK' },
    });
    expect(chinese.body.message).toBe('證件號碼格式錯誤');
    expect((await client.post('/api/v1/attendees', { ...hongKonger, name: 42 })).body).toMatchObject({
      errorCode: 'invalid_input',
      field: 'name',
    });
    expect((await client.call<unknown[]>('/api/v1/attendees')).body.data).toEqual([]);
  });

  it("answers 404 for another user's attendee and changes nothing", async () => {
    const owner = await signedIn();
    const other = await signedIn();
    const id = (await owner.post<{ id: number }>('/api/v1/attendees', hongKonger)).body.data.id;
    for (const init of [{}, { method: 'PUT', body: { ...hongKonger, name: 'Thief' } }, { method: 'DELETE' }]) {
      const answer = await other.call(`/api/v1/attendees/${id}`, init);
      expect(answer.body).toMatchObject({ code: 404, errorCode: 'attendee_not_found' });
      expect(JSON.stringify(answer.body)).not.toContain('A123456');
    }
    expect((await owner.call(`/api/v1/attendees/${id}`)).body.data).toMatchObject({ name: 'Chan Tai Man', idCardNo: 'A123456(3)' });
  });

  it(`keeps at most ${MAX_ATTENDEES} attendees per user`, async () => {
    const client = await signedIn();
    for (let i = 0; i < MAX_ATTENDEES; i += 1) {
      expect(
        (
          await client.post('/api/v1/attendees', {
            name: `Guest ${i}`,
            nationality: 'JP',
            idCardType: 'passport',
            idCardNo: `TK${100000 + i}`,
          })
        ).status,
      ).toBe(200);
    }
    const refused = await client.post('/api/v1/attendees', hongKonger);
    expect(refused.body).toMatchObject({ code: 409, errorCode: 'attendee_limit_reached' });
    expect((await client.call<unknown[]>('/api/v1/attendees')).body.data).toHaveLength(MAX_ATTENDEES);
  });
});
