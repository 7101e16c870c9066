/**
 * Largest tool result handed back to the model (bytes). A runaway tool must not turn one
 * lookup into a prompt that eats the whole budget B; the cut is marked so the model sees it.
 */
export const MAX_RESULT_BYTES = 64 * 1024;
