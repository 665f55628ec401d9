export {
  driveEditTurn,
  EDIT_TURN,
  EDIT_TURN_KEPT_APART,
  type EditTurnObservation,
  editTurnSchedule,
  type GatedFsWorkspace,
  type GatedFsWorkspaceOptions,
  gatedFsWorkspace,
  settle,
} from './gated-fs-workspace.js';
