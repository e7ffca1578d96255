/**
 * The members of one distinct count in one time bucket, for the in-process hot state: exact (a
 * list of 32-bit member hashes) up to EXACT_LIMIT members, then a HyperLogLog sketch of
 * REGISTERS one-byte registers (standard error about 4.6 %, linear counting while small), so an
 * owner with a million members costs 512 bytes, not a million entries. Counts at or below
 * EXACT_LIMIT are exact (save a 32-bit hash collision), which is the range rule thresholds use.
 */
export const EXACT_LIMIT = 64;
const P = 9;
export const REGISTERS = 1 << P;
const ALPHA = 0.7213 / (1 + 1.079 / REGISTERS);

export class MemberSet {
  /** Exact mode: member hashes in hashes[0…n). Null once the set is a sketch. */
  private hashes: Uint32Array | null = new Uint32Array(8);
  private n = 0;
  private registers: Uint8Array | null = null;

  /** Add a member hash; true when the set changed its size in bytes (grew or became a sketch). */
  add(hash: number): boolean {
    if (this.registers) {
      addToRegisters(this.registers, hash);
      return false;
    }
    const hashes = this.hashes as Uint32Array;
    for (let i = 0; i < this.n; i++) if (hashes[i] === hash) return false;
    if (this.n === EXACT_LIMIT) {
      this.registers = new Uint8Array(REGISTERS);
      for (let i = 0; i < this.n; i++) addToRegisters(this.registers, hashes[i] as number);
      addToRegisters(this.registers, hash);
      this.hashes = null;
      return true;
    }
    let grown = false;
    if (this.n === hashes.length) {
      const bigger = new Uint32Array(Math.min(EXACT_LIMIT, hashes.length * 2));
      bigger.set(hashes);
      this.hashes = bigger;
      grown = true;
    }
    (this.hashes as Uint32Array)[this.n++] = hash;
    return grown;
  }

  has(hash: number): boolean {
    if (!this.hashes) return false;
    for (let i = 0; i < this.n; i++) if (this.hashes[i] === hash) return true;
    return false;
  }

  /** Exact count, or the sketch's estimate. */
  size(): number {
    return this.registers ? estimate(this.registers) : this.n;
  }

  /** Approximate heap bytes (object, typed array headers and contents). */
  bytes(): number {
    return (
      120 + (this.hashes ? this.hashes.byteLength : 0) + (this.registers ? this.registers.byteLength : 0)
    );
  }

  /** Members of `other` that are not in this set (estimated when either is a sketch). */
  missing(other: MemberSet): number {
    if (other.n === 0 && !other.registers) return 0;
    if (!this.registers && !other.registers) {
      let count = 0;
      const theirs = other.hashes as Uint32Array;
      for (let i = 0; i < other.n; i++) if (!this.has(theirs[i] as number)) count++;
      return count;
    }
    const union = SCRATCH;
    union.fill(0);
    this.mergeInto(union);
    other.mergeInto(union);
    return Math.max(0, estimate(union) - this.size());
  }

  /** Fill from hashes (exact). */
  static of(hashes: ArrayLike<number>, from: number, count: number): MemberSet {
    const set = new MemberSet();
    for (let i = 0; i < count; i++) set.add(hashes[from + i] as number);
    return set;
  }

  private mergeInto(registers: Uint8Array): void {
    if (this.registers) {
      for (let i = 0; i < REGISTERS; i++)
        if ((this.registers[i] as number) > (registers[i] as number))
          registers[i] = this.registers[i] as number;
      return;
    }
    const hashes = this.hashes as Uint32Array;
    for (let i = 0; i < this.n; i++) addToRegisters(registers, hashes[i] as number);
  }
}

/** 2^-r for every register value r. */
const INVERSE_POWERS = Float64Array.from({ length: 34 }, (_, r) => 2 ** -r);

/** Scratch registers for union estimates (used and released within one call). */
const SCRATCH = new Uint8Array(REGISTERS);

function addToRegisters(registers: Uint8Array, hash: number): void {
  const index = hash & (REGISTERS - 1);
  const rest = hash >>> P;
  // Position of the first 1 bit in the remaining 32 - P bits (1-based); all zero: 32 - P + 1.
  const rank = Math.clz32(rest) - P + 1;
  if (rank > (registers[index] as number)) registers[index] = rank;
}

function estimate(registers: Uint8Array): number {
  let sum = 0;
  let zeros = 0;
  for (let i = 0; i < REGISTERS; i++) {
    const r = registers[i] as number;
    sum += INVERSE_POWERS[r] as number;
    if (r === 0) zeros++;
  }
  const raw = (ALPHA * REGISTERS * REGISTERS) / sum;
  if (raw <= 2.5 * REGISTERS && zeros > 0) return Math.round(REGISTERS * Math.log(REGISTERS / zeros));
  return Math.round(raw);
}
