// THE table of the central bank's dataset families (docs/guides/datasets.md, "Families"): the name
// users type, the path under /v1/data/cbank/, and the query parameter that selects one series. The
// commands, their help and the shell completions all read this table; nothing else names a family.
import { endpointPath, ENDPOINTS } from '../../api/endpoints.js';
import { UsageError } from '../../core/errors.js';
import type { Block } from '../../core/program/document.js';

export type SelectorParam = 'key' | 'indicator' | 'metric' | 'line';

export interface DataFamily {
  /** What users type: `svc data latest <name>`. */
  readonly name: string;
  /** Path under /v1/data/cbank/. */
  readonly path: string;
  /** Query parameter naming the series of `/series`. */
  readonly selector: SelectorParam;
  /** One line for help and completions. */
  readonly summary: string;
  /** A selector of this family, for examples. */
  readonly example: string;
  /** Per-bank data: `--bank B` is sent as `bank=B`. */
  readonly perBank?: boolean;
}

export const DATA_FAMILIES: readonly DataFamily[] = [
  {
    name: 'balance-sheet',
    path: 'banking/balance-sheet',
    selector: 'key',
    summary: 'banking system balance sheet by line item (NPR millions)',
    example: 'total-deposits',
  },
  {
    name: 'pnl',
    path: 'banking/pnl',
    selector: 'key',
    summary: 'banking system profit and loss (NPR millions)',
    example: 'income.interest-income',
  },
  {
    name: 'credit',
    path: 'banking/credit',
    selector: 'key',
    summary: 'bank credit by sector and by product',
    example: 'sector-agriculture',
  },
  {
    name: 'indicators',
    path: 'banking/indicators',
    selector: 'indicator',
    summary: 'C4 banking indicators: capital, asset quality, liquidity',
    example: 'npl-ratio',
  },
  {
    name: 'cbs',
    path: 'cbs',
    selector: 'indicator',
    summary: 'central bank survey, by SDMX-style code',
    example: 'CBS.RM',
  },
  {
    name: 'cpi',
    path: 'cpi',
    selector: 'indicator',
    summary: 'consumer price indices (SDMX codes, index 2014/15 = 100)',
    example: 'PCPI_IX',
  },
  {
    name: 'interest-rates',
    path: 'interest-rates',
    selector: 'metric',
    summary: 'base, spread and weighted-average rates',
    example: 'base-rate',
  },
  {
    name: 'trade',
    path: 'trade',
    selector: 'key',
    summary: 'exports (FOB) and imports (CIF) by SITC section',
    example: 'imports-cif',
  },
  {
    name: 'bank-pnl',
    path: 'banks/pnl',
    selector: 'line',
    perBank: true,
    summary: 'profit and loss of each bank (sheet C9, NPR millions; --bank B)',
    example: 'income.interest-income',
  },
  {
    name: 'macro',
    path: 'macro',
    selector: 'indicator',
    summary: 'macro indicators, each with a source quote',
    example: 'inflation',
  },
];

/** The C4 indicators of one month: `svc data snapshot`. */
export const SNAPSHOT = { monthParam: 'month' } as const;

export function findFamily(name: string | undefined): DataFamily {
  const family = DATA_FAMILIES.find((f) => f.name === name);
  if (family) return family;
  const names = DATA_FAMILIES.map((f) => f.name).join(', ');
  if (name === undefined || name === '')
    throw new UsageError(`missing argument FAMILY (one of ${names})`);
  throw new UsageError(`unknown data family "${name}" (choose ${names})`, [
    'List them with `svc data --help`.',
  ]);
}

export function latestPath(family: DataFamily): string {
  return endpointPath(ENDPOINTS.dataLatest, { family: family.path });
}

export function seriesPath(family: DataFamily): string {
  return endpointPath(ENDPOINTS.dataSeries, { family: family.path });
}

export function snapshotPath(): string {
  return ENDPOINTS.dataSnapshot.path;
}

/**
 * The family table as help: each family's name, what it holds, its path and its selector parameter
 * (blocks made here: completion reads this module, and loads no renderer).
 */
export function familiesHelp(): Block[] {
  return [
    {
      kind: 'heading',
      text: 'Families (FAMILY): what each holds (its path under /v1/data/cbank/, by its series selector parameter)',
    },
    {
      kind: 'definitions',
      items: DATA_FAMILIES.map((f) => [f.name, `${f.summary} (${f.path}, by ${f.selector})`]),
    },
  ];
}
