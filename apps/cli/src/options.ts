import type { Command } from 'commander';

/**
 * A bad flag value, as commander's `InvalidArgumentError` is read (by its code): commander prints it
 * after the flag's name and exits with `exitCode`. Its own class is not imported, so a command's
 * bundle carries no second copy of commander beside the dispatcher's.
 */
class InvalidFlagValue extends Error {
  readonly code = 'commander.invalidArgument';
  readonly exitCode = 1;
}

/** One option of a command: its flags, its help, how its value is read, its default. */
interface OptionSpec {
  /** Commander's flags: `--timeout <seconds>`, `--compare`, `--no-cache`, `-q, --quiet`. */
  flags: string;
  description: string;
  /** Reads the value; throw with `invalid` for a bad one. `previous` for repeatable flags. */
  parse?(value: string, previous: unknown): unknown;
  default?: unknown;
  /** The values allowed, shown in the help and checked. */
  choices?: readonly string[];
}

/** A command's options, keyed by the name their values have (commander's camelCase of the long flag). */
export type OptionTable = Record<string, OptionSpec>;

type ValueOf<Spec> = Spec extends { parse: (value: string, previous: never) => infer Value }
  ? Value
  : Spec extends { choices: readonly (infer Choice)[] }
    ? Choice
    : Spec extends { flags: `${string}<${string}>${string}` }
      ? string
      : boolean;
type HasValue<Spec> = Spec extends { default: unknown }
  ? true
  : Spec extends { flags: `--no-${string}` }
    ? true
    : false;

/** The parsed values of an option table, typed from the table itself. */
export type OptionValues<Table extends OptionTable> = {
  [Key in keyof Table]: HasValue<Table[Key]> extends true ? ValueOf<Table[Key]> : ValueOf<Table[Key]> | undefined;
};

/** Adds every option of a table to a command; the table's keys must be the names commander gives the values. */
export function addOptions(command: Command, table: OptionTable): Command {
  for (const [key, spec] of Object.entries(table)) {
    const option = command.createOption(spec.flags, spec.description);
    if (spec.choices) option.choices(spec.choices);
    if (spec.parse) option.argParser(spec.parse);
    if (spec.default !== undefined) option.default(spec.default);
    if (option.attributeName() !== key) {
      throw new Error(
        `option table of ${command.name()}: ${spec.flags} is read as ${option.attributeName()}, not ${key}`,
      );
    }
    command.addOption(option);
  }
  return command;
}

/** A usage error for a flag value: commander prints it and `skeval` exits 2. */
export function invalid(message: string): never {
  throw new InvalidFlagValue(message);
}

/** A repeatable flag's values, in order. */
export const collect = (value: string, previous: string[]): string[] => [...previous, value];

/**
 * A flag's number written in decimal (`5`, `0.25`, `-1`, `.5`), else NaN: `Number()` alone takes
 * `0x10` as 16, `0b1`, `0o7`, `1e3`, `Infinity` and a blank as 0, none of which a user means.
 */
export function decimalNumber(value: string): number {
  return /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/.test(value.trim()) ? Number(value) : Number.NaN;
}

/** A number above 0. */
export function positiveNumber(value: string): number {
  const number = decimalNumber(value);
  if (value.trim() === '' || !Number.isFinite(number) || number <= 0)
    invalid(`expected a number above 0, got ${value}`);
  return number;
}

/** A whole number above 0. */
export function positiveInteger(value: string): number {
  const number = decimalNumber(value);
  if (value.trim() === '' || !Number.isInteger(number) || number <= 0)
    invalid(`expected a whole number above 0, got ${value}`);
  return number;
}

/** A whole number, 0 or more. */
export function nonNegativeInteger(value: string): number {
  const number = decimalNumber(value);
  if (value.trim() === '' || !Number.isInteger(number) || number < 0)
    invalid(`expected a whole number, 0 or more, got ${value}`);
  return number;
}

/** A number from `min` to `max`; `expected` says what, for the message. */
export function numberBetween(min: number, max: number, expected: string): (value: string) => number {
  return (value) => {
    const number = decimalNumber(value);
    if (value.trim() === '' || !Number.isFinite(number) || number < min || number > max)
      invalid(`expected ${expected}, got ${value}`);
    return number;
  };
}
