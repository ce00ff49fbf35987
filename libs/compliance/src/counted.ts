/** `n` and the noun in the number it takes: "1 tool", "2 tools", "0 tools" (`many` for the irregular ones). */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
