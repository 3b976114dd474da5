import { oneLine } from './mailer';

describe('oneLine', () => {
  it.each([
    ['Shop\r\nBcc: x@elsewhere.example', 'Shop Bcc: x@elsewhere.example'],
    ['Shop\n\n\nSecond paragraph', 'Shop Second paragraph'],
    ['Tab\there', 'Tab here'],
    ['Line\u2028separator\u2029paragraph', 'Line separator paragraph'],
    ['Esc\u001b[31mred\u0085next', 'Esc [31mred next'],
    ['  padded  ', 'padded'],
    ['Café — 東京店', 'Café — 東京店'],
  ])('%j → %j', (text, line) => {
    expect(oneLine(text)).toBe(line);
  });
});
