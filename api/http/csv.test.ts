import { csvLine, decimal } from './csv';

describe('csvLine, the one CSV writer of every export', () => {
  it.each([
    ['=HYPERLINK("http://evil.example","x")', `"'=HYPERLINK(""http://evil.example"",""x"")"`],
    ['=1+2', "'=1+2"],
    ['+1', "'+1"],
    ['-2+3', "'-2+3"],
    ['-5.00', "'-5.00"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tcmd', "'\tcmd"],
    ['\r=1', `"'\r=1"`],
    ['\uFF1D1+2', "'\uFF1D1+2"],
    ['\uFF0B1', "'\uFF0B1"],
    ['\uFF0D1', "'\uFF0D1"],
    ['\uFF20SUM(A1)', "'\uFF20SUM(A1)"],
  ])('keeps the text %j, which a spreadsheet would run, as text', (text, cell) => {
    expect(csvLine([text, 'next'])).toBe(`${cell},next\r\n`);
  });

  it('writes plain text as it is, and a formula character inside a text leaves it alone', () => {
    expect(csvLine(['Spring sale', 'a=b', 'x+1', 'mail@shop.example', '', null])).toBe('Spring sale,a=b,x+1,mail@shop.example,,\r\n');
  });

  it('quotes a text holding a separator, a quote, CR or LF, doubling its quotes (RFC 4180)', () => {
    expect(csvLine(['Spring, "big" sale', 'two\r\nlines', 'one\nline', 'a\rb', '"'])).toBe('"Spring, ""big"" sale","two\r\nlines","one\nline","a\rb",""""\r\n');
  });

  it('writes numbers as numbers, negative ones too: a -5.00 refund is no formula', () => {
    expect(csvLine([-5, 0, 12.5, -0.25])).toBe('-5,0,12.5,-0.25\r\n');
    expect(csvLine([decimal('-5.00'), decimal('1234567890123456789.1234'), decimal('0'), decimal(null)])).toBe('-5.00,1234567890123456789.1234,0,\r\n');
  });

  it('refuses to take text that is no decimal for a number cell', () => {
    for (const text of ['=1+2', '-', '1e3', ' 1', '1,5', '+1']) expect(() => decimal(text)).toThrow(`not a decimal number: ${JSON.stringify(text)}`);
  });
});
