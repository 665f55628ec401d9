import { Observable } from 'rxjs';
import type { ToolInput } from './answered.js';
import type { Attempt } from './attempt.js';

/**
 * Stage 3: waits until no tool of this dispatcher that outlived its answer holds a key that
 * conflicts with the call's (README: Tools that outlive their answer); its `settle-timeout`
 * events go out meanwhile. Nothing to wait for, it hands the input on at once.
 */
export function keysClear(attempt: Attempt, input: ToolInput): Observable<ToolInput> | ToolInput {
  const outliving = attempt.batch.config.outliving;
  const node = outliving.size === 0 ? undefined : attempt.prepared.node;
  if (node === undefined || !outliving.blocks(node)) return input;
  return new Observable<ToolInput>((subscriber) =>
    outliving.whenClear(node).subscribe({
      next: (event) => attempt.emit(event),
      complete: () => {
        attempt.keysCleared();
        subscriber.next(input);
        subscriber.complete();
      },
    }),
  );
}
