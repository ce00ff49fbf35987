import { strings } from '@angular-devkit/core';
import { SchematicsException } from '@angular-devkit/schematics';

/** The name forms the templates use, from what the user typed (`weather-forecast`, `weatherForecast`). */
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

/** Derives every form of a provider name; refuses names that cannot become a valid MCP name. */
export function nameForms(raw: string | undefined, what: string): NameForms {
  const typed = (raw ?? '').trim();
  const fileName = strings.dasherize(typed.replace(/[\s_]+/g, '-')).replace(/-+/g, '-');
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(fileName) || fileName.length > 60) {
    throw new SchematicsException(
      `${what}: the name must start with a letter and use letters, digits and dashes (got ${JSON.stringify(raw)}), ` +
        'e.g. `weather-forecast`',
    );
  }
  const words = fileName.split('-');
  return {
    fileName,
    className: strings.classify(fileName),
    methodName: strings.camelize(fileName),
    mcpName: words.join('_'),
    title: [words[0][0].toUpperCase() + words[0].slice(1), ...words.slice(1)].join(' '),
  };
}
