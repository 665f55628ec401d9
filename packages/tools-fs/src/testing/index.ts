export {
  EDIT_TURN,
  type GatedFsWorkspace,
  gatedFsWorkspace,
  settle,
} from './gated-fs-workspace.js';
