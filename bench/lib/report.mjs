export function writeReport() {}
