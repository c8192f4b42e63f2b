/** A whole-number setting read from the environment when it is used (not only at boot): a bad value is an error naming the variable. */
export function envInt(env: NodeJS.ProcessEnv, key: string, fallback: number | undefined, min: number, max: number): number | undefined {
  const raw = env[key];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${key} must be a whole number from ${min} to ${max}, not '${raw}'`);
  return n;
}
