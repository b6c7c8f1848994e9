/**
 * The stack states one review reads. Reviewing several stacks at once, each counts the others'
 * subscriptions as managed (`alsoManagedBy`): each stack's state is exported once and shared,
 * not once by itself and again by every other stack under review.
 */
import type { StateSnapshot } from "./stateSnapshot";

export class StackStates {
  private readonly states = new Map<string, Promise<StateSnapshot>>();

  /** `stackName`'s state: `exportState()` the first time it is asked for, the same answer after. */
  of(stackName: string, exportState: () => Promise<StateSnapshot>): Promise<StateSnapshot> {
    let state = this.states.get(stackName);
    if (!state) {
      state = exportState();
      this.states.set(stackName, state);
      // A failed export is not kept: the stack that needs it next tries again, and says why.
      state.catch(() => this.states.delete(stackName));
    }
    return state;
  }
}
