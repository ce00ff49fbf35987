import type { Attributes, AttributeValue, HrTime } from '@opentelemetry/api';

const TWO_32 = 4_294_967_296;
const INT64_MIN = -(2 ** 63);
const INT64_MAX = 2 ** 63;

/**
 * A growing buffer with the few protobuf primitives OTLP's trace messages need (see `encodeTraceExportRequest`).
 * @internal
 */
export class ProtoWriter {
  private buf: Buffer;
  private pos = 0;

  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(size);
  }

  finish(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }

  /** Room for `n` more bytes. */
  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(bigger, 0, 0, this.pos);
    this.buf = bigger;
  }

  tag(tag: number): void {
    this.room(1);
    this.buf[this.pos++] = tag;
  }

  /**
   * Starts a length-delimited message: `reserved` bytes are left for its length (1 for a small message, 2 for a
   * span, 3 for a batch), written by {@link close} when the message ends. Returns where the message starts.
   */
  open(reserved: number): number {
    this.room(reserved);
    this.pos += reserved;
    return this.pos;
  }

  /** Writes the length of the message that started at `start` in front of it (moving it when more bytes are needed). */
  close(start: number, reserved: number): void {
    const length = this.pos - start;
    const size = varintSize(length);
    if (size !== reserved) {
      this.room(size - reserved);
      this.buf.copyWithin(start + size - reserved, start, this.pos);
      this.pos += size - reserved;
    }
    let at = start - reserved;
    let v = length;
    while (v > 0x7f) {
      this.buf[at++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.buf[at] = v;
  }

  varintField(tag: number, value: number): void {
    this.tag(tag);
    this.varint(value);
  }

  /** An unsigned varint, or an int64 in two's complement (ten bytes for a negative number). */
  private varint(value: number): void {
    this.room(10);
    if (value >= 0 && value < TWO_32) {
      let v = value >>> 0;
      while (v > 0x7f) {
        this.buf[this.pos++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      this.buf[this.pos++] = v;
      return;
    }
    let low = Math.abs(value) >>> 0;
    let high = (Math.abs(value) / TWO_32) >>> 0;
    if (value < 0) {
      low = ~low >>> 0;
      high = ~high >>> 0;
      low = (low + 1) >>> 0;
      if (low === 0) high = (high + 1) >>> 0;
    }
    while (high > 0 || low > 0x7f) {
      this.buf[this.pos++] = (low & 0x7f) | 0x80;
      low = ((low >>> 7) | (high << 25)) >>> 0;
      high >>>= 7;
    }
    this.buf[this.pos++] = low;
  }

  /** A string field: its UTF-8 length, then its bytes (lone surrogates become U+FFFD, as TextEncoder writes them). */
  string(tag: number, value: string): void {
    this.room(value.length * 3 + 6);
    this.buf[this.pos++] = tag;
    // Up to 42 characters take at most 126 bytes: a one-byte length, written once the bytes are.
    if (value.length < 43) {
      const n = this.buf.write(value, this.pos + 1, 'utf8');
      this.buf[this.pos] = n;
      this.pos += 1 + n;
    } else {
      this.varint(Buffer.byteLength(value, 'utf8'));
      this.pos += this.buf.write(value, this.pos, 'utf8');
    }
  }

  /** A trace or span id, given in hex, as its bytes. */
  hex(tag: number, hex: string): void {
    const n = hex.length >>> 1;
    this.room(n + 6);
    this.buf[this.pos++] = tag;
    this.varint(n);
    const written = this.buf.write(hex, this.pos, n, 'hex');
    // Not hex (a link's context is the caller's): the id's bytes after the first bad pair are zero.
    if (written < n) this.buf.fill(0, this.pos + written, this.pos + n);
    this.pos += n;
  }

  /** A fixed32 field (`tag2` is the second byte of a two-byte tag). */
  fixed32(tag: number, tag2: number | undefined, value: number): void {
    this.room(6);
    this.buf[this.pos++] = tag;
    if (tag2 !== undefined) this.buf[this.pos++] = tag2;
    this.buf.writeUInt32LE(value >>> 0, this.pos);
    this.pos += 4;
  }

  /** An HrTime ([seconds, nanoseconds]) as fixed64 nanoseconds, split so that no step leaves a double's exact range. */
  time(tag: number, [seconds, nanos]: HrTime): void {
    this.room(9);
    this.buf[this.pos++] = tag;
    const fromLow = (seconds & 0xffff) * 1e9; // < 2^46
    const fromHigh = Math.floor(seconds / 0x10000) * 1e9; // the rest of the seconds, in units of 2^16 ns
    const low = (fromLow % TWO_32) + (fromHigh % 0x10000) * 0x10000 + nanos;
    const high = Math.floor(fromLow / TWO_32) + Math.floor(fromHigh / 0x10000) + Math.floor(low / TWO_32);
    this.buf.writeUInt32LE((low % TWO_32) >>> 0, this.pos);
    this.buf.writeUInt32LE((high % TWO_32) >>> 0, this.pos + 4);
    this.pos += 8;
  }

  /** Repeated KeyValue { key = 1, value = 2 } under `tag`. */
  attributes(tag: number, attributes: Attributes): void {
    for (const key in attributes) {
      if (!Object.prototype.hasOwnProperty.call(attributes, key)) continue;
      this.tag(tag);
      const kv = this.open(1);
      this.string(0x0a, key);
      this.tag(0x12);
      const value = this.open(1);
      this.anyValue(attributes[key]);
      this.close(value, 1);
      this.close(kv, 1);
    }
  }

  /**
   * AnyValue { string = 1, bool = 2, int = 3, double = 4, array = 5, kvlist = 6, bytes = 7 }: integers in int64's range
   * as int, other numbers as double; null and undefined as an empty AnyValue.
   */
  private anyValue(value: AttributeValue | Uint8Array | Record<string, unknown> | null | undefined): void {
    if (typeof value === 'string') this.string(0x0a, value);
    else if (typeof value === 'boolean') this.varintField(0x10, value ? 1 : 0);
    else if (typeof value === 'number') {
      if (Number.isInteger(value) && value >= INT64_MIN && value < INT64_MAX) this.varintField(0x18, value);
      else {
        this.room(9);
        this.buf[this.pos++] = 0x21;
        this.buf.writeDoubleLE(value, this.pos);
        this.pos += 8;
      }
    } else if (value instanceof Uint8Array) {
      this.tag(0x3a);
      this.varint(value.length);
      this.room(value.length);
      this.buf.set(value, this.pos);
      this.pos += value.length;
    } else if (Array.isArray(value)) {
      this.tag(0x2a);
      const list = this.open(1); // ArrayValue { values = 1 }
      for (const item of value as unknown[]) {
        this.tag(0x0a);
        const v = this.open(1);
        this.anyValue(item as AttributeValue);
        this.close(v, 1);
      }
      this.close(list, 1);
    } else if (value !== null && typeof value === 'object') {
      this.tag(0x32);
      const list = this.open(1); // KeyValueList { values = 1 }
      this.attributes(0x0a, value as Attributes);
      this.close(list, 1);
    }
  }
}

function varintSize(v: number): number {
  return v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 5;
}
