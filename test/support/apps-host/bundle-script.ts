import { build } from 'esbuild';

/**
 * Bundles one browser entry (TypeScript, with its npm imports) into a single script, in memory: an IIFE for current
 * browsers, nothing written to disk and nothing left to fetch at run time.
 */
export async function bundleScript(entry: string): Promise<string> {
  const { outputFiles } = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  return outputFiles[0].text;
}
