import type { Plan, PlanNode, Wave } from '@toolwaves/planner';

// Plainly written references of the rules, independent of the package's implementation:
// O(n²) and O(n · waves) on purpose.

/** Key segments; a trailing empty segment (from a trailing `/`) is dropped. */
const segments = (key: string): string[] => {
  const parts = key.split('/');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  return parts;
};

// The generated keys come from small pools and the references compare them pair by pair,
// thousands of times: each key is split once.
const split = new Map<string, readonly string[]>();
const segmentsOf = (key: string): readonly string[] => {
  let parts = split.get(key);
  if (parts === undefined) {
    parts = segments(key);
    split.set(key, parts);
  }
  return parts;
};

/** Two keys overlap when the segments of one are a prefix of the other's. */
export function referenceKeysOverlap(a: string, b: string): boolean {
  const x = segmentsOf(a);
  const y = segmentsOf(b);
  const shorter = Math.min(x.length, y.length);
  for (let s = 0; s < shorter; s++) if (x[s] !== y[s]) return false;
  return true;
}

const listOf = (node: PlanNode) => [
  ...(node.resourceKey === undefined ? [] : [{ key: node.resourceKey, mode: 'write' }]),
  ...(node.access ?? []),
];

// Listed once per node (nodes are never changed): the references compare them pair by pair.
const lists = new WeakMap<PlanNode, { key: string; mode: string }[]>();
const accessList = (node: PlanNode) => {
  let list = lists.get(node);
  if (list === undefined) {
    list = listOf(node);
    lists.set(node, list);
  }
  return list;
};

/** Both concurrency-safe and some pair of accesses overlaps with a write. */
export function keyConflict(a: PlanNode, b: PlanNode): boolean {
  if (!a.parallelizable || !b.parallelizable) return false;
  return accessList(a).some((x) =>
    accessList(b).some(
      (y) => (x.mode === 'write' || y.mode === 'write') && referenceKeysOverlap(x.key, y.key),
    ),
  );
}

/** The seed's algorithm, as `waves-spec.txt` writes it: `wave_keys` and `wave_open`. */
export function referenceSeedGreedy(nodes: readonly PlanNode[]): number[][] & { open: boolean[] } {
  const waves: number[][] = [];
  const waveKeys: Set<string>[] = [];
  const waveOpen: boolean[] = [];
  for (const node of nodes) {
    if (!node.parallelizable) {
      waves.push([node.index]);
      waveKeys.push(new Set());
      waveOpen.push(false);
      continue;
    }
    const key = node.resourceKey;
    let target = -1;
    for (let w = 0; w < waves.length; w++) {
      if (waveOpen[w] && (key === undefined || !waveKeys[w]!.has(key))) {
        target = w;
        break;
      }
    }
    if (target === -1) {
      waves.push([]);
      waveKeys.push(new Set());
      waveOpen.push(true);
      target = waves.length - 1;
    }
    waves[target]!.push(node.index);
    if (key !== undefined) waveKeys[target]!.add(key);
  }
  return Object.assign(waves, { open: waveOpen });
}

/**
 * First-fit as DESIGN §2 states it for access lists: a safe call joins the earliest open wave
 * that holds no conflicting access and comes after the last wave holding a conflicting earlier
 * call (and, when ordered, after the last unsafe call's wave).
 */
export function referenceFirstFit(nodes: readonly PlanNode[], ordered: boolean): Wave[] {
  const waves: number[][] = [];
  const bornOpen: boolean[] = [];
  const waveOf: number[] = [];
  let fence = -1;
  for (const node of nodes) {
    const i = node.index;
    if (!node.parallelizable) {
      waves.push([i]);
      bornOpen.push(false);
      waveOf[i] = waves.length - 1;
      if (ordered) fence = waves.length - 1;
      continue;
    }
    let after = fence;
    for (let j = 0; j < i; j++) {
      if (keyConflict(nodes[j]!, node)) after = Math.max(after, waveOf[j]!);
    }
    let target = -1;
    for (let w = after + 1; w < waves.length; w++) {
      const holdsConflict = waves[w]!.some((j) => keyConflict(nodes[j]!, node));
      if (bornOpen[w] && !holdsConflict) {
        target = w;
        break;
      }
    }
    if (target === -1) {
      waves.push([]);
      bornOpen.push(true);
      target = waves.length - 1;
    }
    waves[target]!.push(i);
    waveOf[i] = target;
  }
  return waves.map((calls, w) => ({ calls, open: bornOpen[w]! && w > fence }));
}

/** Rules 1–4 (and 5 when `ordered`), checked pair by pair. */
export function isValidPlan(nodes: readonly PlanNode[], plan: Plan, ordered: boolean): boolean {
  const waveOf = new Map<number, number>();
  for (const [w, wave] of plan.waves.entries()) {
    if (wave.calls.length === 0) return false;
    for (const [k, call] of wave.calls.entries()) {
      if (!Number.isInteger(call) || call < 0 || call >= nodes.length || waveOf.has(call))
        return false;
      if (k > 0 && wave.calls[k - 1]! >= call) return false;
      waveOf.set(call, w);
    }
  }
  if (waveOf.size !== nodes.length) return false;
  for (const wave of plan.waves) {
    if (wave.calls.length > 1 && wave.calls.some((call) => !nodes[call]!.parallelizable))
      return false;
  }
  for (let i = 0; i < nodes.length; i++) {
    for (let j = 0; j < i; j++) {
      const wi = waveOf.get(i)!;
      const wj = waveOf.get(j)!;
      if (keyConflict(nodes[j]!, nodes[i]!) && wj >= wi) return false;
      const barrier = !nodes[i]!.parallelizable || !nodes[j]!.parallelizable;
      if (ordered && barrier && wj >= wi) return false;
    }
  }
  return true;
}

/**
 * Every plan of a small batch: each call gets a wave label, and only labellings that use
 * waves 0..k-1 without gaps are kept (each ordered partition once).
 */
export function* allPlans(count: number): Generator<Plan> {
  if (count === 0) {
    yield { planner: 'brute-force', waves: [] };
    return;
  }
  const labels = new Array<number>(count).fill(0);
  for (;;) {
    const used = new Set(labels);
    if (used.size === Math.max(...labels) + 1) {
      const waves: Wave[] = [...used]
        .sort((a, b) => a - b)
        .map((w) => ({
          calls: labels.flatMap((label, call) => (label === w ? [call] : [])),
          open: false,
        }));
      yield { planner: 'brute-force', waves };
    }
    let digit = 0;
    while (digit < count && labels[digit] === count - 1) labels[digit++] = 0;
    if (digit === count) return;
    labels[digit]!++;
  }
}
