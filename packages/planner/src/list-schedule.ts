/**
 * How long a group of calls takes on `slots` parallel slots when they start in the given order,
 * each as soon as a slot is free (list scheduling — what `mergeMap(run, cap)` does). Internal
 * to the package.
 *
 * @example listSchedule([5, 1, 1, 1, 4], 2) // 7: 5 ‖ 1,1,1,4
 */
export function listSchedule(durations: readonly number[], slots: number): number {
  if (durations.length <= slots) {
    let longest = 0;
    for (const duration of durations) if (duration > longest) longest = duration;
    return longest;
  }
  // A binary min-heap of the times the slots become free.
  const free: number[] = new Array<number>(slots).fill(0);
  let end = 0;
  for (const duration of durations) {
    const finish = free[0]! + duration;
    if (finish > end) end = finish;
    siftDown(free, finish);
  }
  return end;
}

/** Replaces the heap's smallest element with `value` and restores the heap. */
function siftDown(heap: number[], value: number): void {
  const size = heap.length;
  let at = 0;
  for (;;) {
    const left = 2 * at + 1;
    if (left >= size) break;
    const right = left + 1;
    const smaller = right < size && heap[right]! < heap[left]! ? right : left;
    if (heap[smaller]! >= value) break;
    heap[at] = heap[smaller]!;
    at = smaller;
  }
  heap[at] = value;
}
