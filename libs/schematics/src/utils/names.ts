import { strings } from '@angular-devkit/core';
import { SchematicsException } from '@angular-devkit/schematics';
import { McpSchematic, nameRefusal } from './option-rules';

/** The name forms the templates use, from the kebab-case name the user typed (`weather-forecast`). */
export interface NameForms {
  /** File and folder name: `weather-forecast`. */
  fileName: string;
  /** Class prefix: `WeatherForecast`. */
  className: string;
  /** Method name: `weatherForecast`. */
  methodName: string;
  /** MCP name: `weather_forecast`. */
  mcpName: string;
  /** Human title: `Weather forecast`. */
  title: string;
}

/**
 * Derives every form of a provider name. Only lower-case kebab-case is taken as it is: anything else is refused
 * rather than rewritten, so what the user typed is what the files, classes and MCP name are made from.
 */
export function nameForms(raw: string | undefined, schematic: McpSchematic): NameForms {
  const refusal = nameRefusal(schematic, raw);
  if (refusal) throw new SchematicsException(refusal);
  const fileName = raw!;
  const words = fileName.split('-');
  return {
    fileName,
    className: strings.classify(fileName),
    methodName: strings.camelize(fileName),
    mcpName: words.join('_'),
    title: [words[0][0].toUpperCase() + words[0].slice(1), ...words.slice(1)].join(' '),
  };
}
