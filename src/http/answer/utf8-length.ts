/** Any character outside ASCII: a body without one is as many bytes as characters. */
const NON_ASCII = /[^\u0000-\u007f]/;

/**
 * How many bytes `text` takes in UTF-8, as `TextEncoder` writes it (a lone surrogate becomes U+FFFD, three
 * bytes), without encoding it: a `Content-Length` per answer, where encoding allocated the body's bytes only
 * to read their count. Answers are nearly always ASCII, which one regular-expression test settles.
 */
export function utf8Length(text: string): number {
  if (!NON_ASCII.test(text)) return text.length;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;
