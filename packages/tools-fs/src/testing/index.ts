export {
  driveEditTurn,
  EDIT_TURN,
  type EditTurnObservation,
  editTurnSchedule,
  type GatedFsWorkspace,
  type GatedFsWorkspaceOptions,
  gatedFsWorkspace,
  settle,
} from './gated-fs-workspace.js';
