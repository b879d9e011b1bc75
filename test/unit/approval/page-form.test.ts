import { readForm } from '../../../src/approval/page-form';
import { questionPage } from '../../../src/approval/page-html';

const schema = {
  properties: {
    name: { type: 'string', title: 'Name' },
    age: { type: 'integer', title: 'Age' },
    vip: { type: 'boolean' },
    seat: { type: 'string', oneOf: [{ const: 'w', title: 'Window' }, { const: 'a', title: 'Aisle' }] },
  },
  required: ['name'],
};

test('fields are typed by the schema; an unticked box is false; empty optional fields are left out', () => {
  expect(readForm('name=Ada&age=36&seat=w&_action=accept', schema)).toEqual({
    ok: true,
    answer: { action: 'accept', content: { name: 'Ada', age: 36, vip: false, seat: 'w' } },
  });
  expect(readForm('name=Ada&vip=true&age=&_action=accept', schema)).toEqual({
    ok: true,
    answer: { action: 'accept', content: { name: 'Ada', vip: true } },
  });
  expect(readForm('_action=decline', schema)).toEqual({ ok: true, answer: { action: 'decline' } });
});

test('refused: unknown or repeated fields, a bad number or choice, no action, too many fields', () => {
  const unknown = readForm('name=a&evil=1&_action=accept', schema);
  expect(unknown).toMatchObject({ ok: false, reason: expect.stringContaining('evil') });
  expect(readForm('name=a&name=b&_action=accept', schema)).toMatchObject({ ok: false });
  const fraction = readForm('name=a&age=3.5&_action=accept', schema);
  expect(fraction).toMatchObject({ ok: false, reason: 'Age must be a whole number.' });
  expect(readForm('name=a&seat=x&_action=accept', schema)).toMatchObject({ ok: false });
  expect(readForm('name=a', schema)).toMatchObject({ ok: false, reason: 'Choose Submit or Decline.' });
  expect(readForm(Array.from({ length: 70 }, (_, i) => `f${i}=1`).join('&'), schema)).toMatchObject({ ok: false });
});

test('the page escapes everything it shows and carries no script', () => {
  const page = questionPage({
    tool: '<b>t</b>',
    args: { x: '"><script>alert(1)</script>' },
    message: '<img src=x onerror=alert(1)>',
    schema,
    values: { name: '"><script>' },
  });
  expect(page.body).not.toMatch(/<script|<img/);
  expect(page.headers['Content-Security-Policy']).toMatch(/^default-src 'none'; style-src 'nonce-[^']+'/);
  expect(page.body).toContain('<option value="w">Window</option>');
});
