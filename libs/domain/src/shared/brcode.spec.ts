import { BR_CODE_MAX_LENGTH, buildDynamicBrCode, crc16Ccitt, parseBrCode, parseTlv, payloadLocation, toBrCodeText } from './brcode';

// Static BR Code example from the BCB "Manual de Padrões para Iniciação do Pix".
const BCB_STATIC_EXAMPLE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';

const input = {
  location: 'https://pix.example.com/qr/v2/cobv/9d36b84fc70b478fb95c12729b90ca25',
  merchantName: 'Fulano de Tal',
  merchantCity: 'BRASILIA',
};

describe('crc16Ccitt', () => {
  it('matches the CRC-16/CCITT-FALSE check value', () => {
    expect(crc16Ccitt('123456789')).toBe('29B1');
  });

  it('is FFFF for the empty string and always 4 uppercase hex chars', () => {
    expect(crc16Ccitt('')).toBe('FFFF');
    for (const s of ['a', 'ab', '0002010102', BCB_STATIC_EXAMPLE]) expect(crc16Ccitt(s)).toMatch(/^[0-9A-F]{4}$/);
  });

  it('computes over the UTF-8 bytes when the text is not ASCII (the same as bit by bit over those bytes)', () => {
    const bitwise = (bytes: Uint8Array) => {
      let crc = 0xffff;
      for (const byte of bytes) {
        crc ^= byte << 8;
        for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
      }
      return crc.toString(16).toUpperCase().padStart(4, '0');
    };
    for (const s of ['São Paulo', 'a😀b', '\u0080', 'ascii then ç']) expect(crc16Ccitt(s)).toBe(bitwise(new TextEncoder().encode(s)));
  });

  it('reproduces the CRC of the BCB static example (computed over the text including "6304")', () => {
    expect(crc16Ccitt(BCB_STATIC_EXAMPLE.slice(0, -4))).toBe('1D3D');
  });
});

describe('buildDynamicBrCode', () => {
  it('renders the fields in order with the location stripped of its scheme', () => {
    const code = buildDynamicBrCode(input);
    const body =
      '000201' +
      '010212' +
      '2681' + '0014br.gov.bcb.pix' + '2559pix.example.com/qr/v2/cobv/9d36b84fc70b478fb95c12729b90ca25' +
      '52040000' +
      '5303986' +
      '5802BR' +
      '5913Fulano de Tal' +
      '6008BRASILIA' +
      '62070503***' +
      '6304';
    expect(code).toBe(body + crc16Ccitt(body));
  });

  it('parses back to the expected fields, without an amount (54)', () => {
    const { fields, crcValid, merchantAccount } = parseBrCode(buildDynamicBrCode(input));
    expect(crcValid).toBe(true);
    expect([...fields.keys()]).toEqual(['00', '01', '26', '52', '53', '58', '59', '60', '62', '63']);
    expect(fields.has('54')).toBe(false);
    expect(fields.get('01')).toBe('12');
    expect(merchantAccount.get('00')).toBe('br.gov.bcb.pix');
    expect(merchantAccount.get('25')).toBe('pix.example.com/qr/v2/cobv/9d36b84fc70b478fb95c12729b90ca25');
    expect(parseTlv(fields.get('62')!).get('05')).toBe('***');
  });

  it('accepts a location already without scheme, identically', () => {
    expect(buildDynamicBrCode({ ...input, location: input.location.slice('https://'.length) })).toBe(buildDynamicBrCode(input));
  });

  it('carries exactly payloadLocation of the stored location, old (https://) or new (scheme-less)', () => {
    for (const stored of [input.location, 'localhost:8080/qr/v2/cobv/abc']) {
      const { merchantAccount } = parseBrCode(buildDynamicBrCode({ ...input, location: stored }));
      expect(merchantAccount.get('25')).toBe(payloadLocation(stored));
    }
  });

  it('turns names and cities into bounded ASCII', () => {
    const { fields } = parseBrCode(
      buildDynamicBrCode({ ...input, merchantName: 'Açaí & Pão de Queijo da Conceição LTDA 🍞', merchantCity: 'São José dos Campos' }),
    );
    expect(fields.get('59')).toBe('Acai & Pao de Queijo da C');
    expect(fields.get('60')).toBe('Sao Jose dos Ca');
  });

  it.each([
    ['Fulano 😀 de  Tal', 10, 'Fulano de'],
    ['  Ünïcödé  ', 25, 'Unicode'],
    ['tab\there', 25, 'tabhere'],
    ['日本', 25, ''],
  ])('toBrCodeText(%j, %d) → %j', (s, max, out) => {
    expect(toBrCodeText(s, max)).toBe(out);
    // Again: the answer from its memo is the same, and the memo keys on the length limit too.
    expect(toBrCodeText(s, max)).toBe(out);
    expect(toBrCodeText(s, 3)).toBe(toBrCodeText(s, 25).slice(0, 3).trim());
  });

  it('gives a name or city with nothing left after sanitising a placeholder: a receiver registered before that was refused still gets a payable code', () => {
    expect(parseTlv(buildDynamicBrCode({ ...input, merchantName: '日本' })).get('59')).toBe('RECEBEDOR');
    expect(parseTlv(buildDynamicBrCode({ ...input, merchantCity: '   ' })).get('60')).toBe('BRASIL');
  });

  it('refuses other schemes and unprintable locations', () => {
    expect(() => buildDynamicBrCode({ ...input, location: 'http://pix.example.com/x' })).toThrow(RangeError);
    expect(() => buildDynamicBrCode({ ...input, location: 'pix.example.com/a b' })).toThrow(RangeError);
    expect(() => buildDynamicBrCode({ ...input, location: 'pix.example.com/ç' })).toThrow(RangeError);
    expect(() => buildDynamicBrCode({ ...input, location: '' })).toThrow(RangeError);
  });

  it('fits a 77-char location (field 26 at its 99-char maximum) and refuses a 78-char one', () => {
    const loc77 = 'pix.example.com/' + 'a'.repeat(77 - 16);
    const code = buildDynamicBrCode({ ...input, location: loc77, merchantName: 'N'.repeat(40), merchantCity: 'C'.repeat(40) });
    expect(parseBrCode(code).fields.get('26')).toHaveLength(99);
    expect(code.length).toBeLessThanOrEqual(BR_CODE_MAX_LENGTH);
    expect(() => buildDynamicBrCode({ ...input, location: loc77 + 'a' })).toThrow(RangeError);
  });
});

describe('parseBrCode', () => {
  it('reads the BCB static example', () => {
    const { fields, crcValid, merchantAccount } = parseBrCode(BCB_STATIC_EXAMPLE);
    expect(crcValid).toBe(true);
    expect(fields.get('59')).toBe('Fulano de Tal');
    expect(fields.get('60')).toBe('BRASILIA');
    expect(fields.get('63')).toBe('1D3D');
    expect(merchantAccount.get('01')).toBe('123e4567-e12b-12d1-a456-426655440000');
  });

  it('reports a wrong checksum as crcValid false', () => {
    expect(parseBrCode(BCB_STATIC_EXAMPLE.slice(0, -4) + '1D3E').crcValid).toBe(false);
    expect(parseBrCode(BCB_STATIC_EXAMPLE.replace('Fulano', 'Fulana')).crcValid).toBe(false);
  });

  it('accepts a lowercase checksum', () => {
    expect(parseBrCode(BCB_STATIC_EXAMPLE.slice(0, -4) + '1d3d').crcValid).toBe(true);
  });

  it('returns an empty merchant account when field 26 is absent', () => {
    const body = '0002015802BR6304';
    expect(parseBrCode(body + crc16Ccitt(body)).merchantAccount.size).toBe(0);
  });

  it.each([
    ['', 'empty'],
    ['000201', 'no CRC'],
    ['0002015802BR', 'no CRC field'],
    ['00020158XXBR63041D3D', 'non-numeric length'],
    ['0002015809BR63041D3D', 'length running past the end'],
    ['000201630400005802BR', 'CRC not last'],
    ['00020100020163041D3D', 'repeated field'],
    ['0002016303ABC', 'CRC of the wrong length'],
    ['00020163041D3G', 'non-hex CRC'],
    ['0002016304' + 'A'.repeat(600), 'longer than 512'],
  ])('throws on %j (%s)', (s) => {
    expect(() => parseBrCode(s)).toThrow(SyntaxError);
  });
});

describe('payloadLocation', () => {
  it('answers host/path without a scheme, also for locations stored with https:// by older versions', () => {
    expect(payloadLocation('pix.example.com/qr/v2/cobv/1')).toBe('pix.example.com/qr/v2/cobv/1');
    expect(payloadLocation('https://localhost:8080/qr/v2/cobv/1')).toBe('localhost:8080/qr/v2/cobv/1');
    expect(payloadLocation('HTTPS://pix.example.com/qr/v2/cobv/1')).toBe('pix.example.com/qr/v2/cobv/1');
  });

  it('refuses other schemes and non-printable text', () => {
    expect(() => payloadLocation('http://pix.example.com/qr/1')).toThrow(RangeError);
    expect(() => payloadLocation('pix.example.com/a b')).toThrow(RangeError);
  });
});
