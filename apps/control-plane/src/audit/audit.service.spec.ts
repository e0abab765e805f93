import { csvField } from './audit.service';

describe('csvField (audit export, RFC 4180 and CSV injection)', () => {
  it('leaves plain values alone and writes null as an empty field', () => {
    expect(csvField('user.created')).toBe('user.created');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
  });

  it('quotes a value holding a comma, quote or line break, doubling its quotes', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
  });

  it('writes objects as JSON (quoted, since JSON holds quotes)', () => {
    expect(csvField({ changes: { a: 1 } })).toBe('"{""changes"":{""a"":1}}"');
    expect(csvField({})).toBe('{}');
  });

  it("prefixes a value a spreadsheet would run as a formula with '", () => {
    for (const v of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx'])
      expect(csvField(v).replace(/^"|"$/g, '')).toBe(`'${v}`);
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
  });
});
