/**
 * The data engine's shared vocabulary (spec points 3, 5, 6): field types, item kinds, cabin
 * node types, data permissions, form elements, jump associations and analysis assignments.
 * Server, web and simulator all speak these shapes; the API contract is docs/api-data-engine.md.
 */

/** Data item field types: integer 10, decimal 1, currency 2, dateTime 4, text 5, longText 6, picture 8, file 9 */
export const FIELD_TYPES = [10, 1, 2, 4, 5, 6, 8, 9] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
export const FIELD_TYPE_NAMES: Record<FieldType, string> = {
  10: 'integer',
  1: 'decimal',
  2: 'currency',
  4: 'dateTime',
  5: 'text',
  6: 'longText',
  8: 'picture',
  9: 'file',
};
/** numeric types: these get rollups and acquisition methods */
export const NUMERIC_FIELD_TYPES: readonly FieldType[] = [10, 1, 2];

/** Date display formats of a dateTime field */
export const DATE_FORMATS = ['yyyy-MM-dd HH:mm:ss', 'yyyy-MM-dd', 'yyyy-MM', 'yyyy'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

/** Data item kinds: 10 manual list, 11 manual form, 13 IoT data list */
export const ITEM_KINDS = [10, 11, 13] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];

export interface FieldDef {
  /** stable key, "f1", "f2", …: records are keyed by it, renames never touch them */
  key: string;
  /** unique within the item, no special characters, at most 25 characters */
  name: string;
  unit?: string;
  type: FieldType;
  /** dateTime fields only */
  dateFormat?: DateFormat;
  required?: boolean;
  /** decimal places for decimal (default 2 for currency) */
  decimals?: number;
}

/** A data source of an item (IoT kind 13 mostly): the device that feeds it */
export interface DataSource {
  deviceId: string;
  deviceName: string;
  /** IPv4 or full IPv6 (spec point 5), optional */
  ip?: string;
}

/** A stored picture or file value (types 8 and 9 hold an array of these) */
export interface StoredFile {
  url: string;
  name: string;
  size: number;
  /** pictures: the 150 px thumbnail */
  thumbUrl?: string;
}

/** A record's values by field key. Numbers for 10/1/2, ISO text for 4, text for 5/6, files for 8/9. */
export type RecordValue = number | string | StoredFile[] | null;
export type RecordValues = Record<string, RecordValue>;

/** Cabin node types (spec point 3 file types). Only directory and dataItem open anything yet. */
export const CABIN_NODE_TYPES = [
  'directory',
  'dataItem',
  'dashboard',
  'dashboardTemplate',
  'device',
  'meter',
  'report',
  'docTemplate',
  'richTemplate',
  'configFile',
  'project',
  'document',
  'table',
  'image',
] as const;
export type CabinNodeType = (typeof CABIN_NODE_TYPES)[number];
/** Copy supports only directories and data items (spec point 5) */
export const COPYABLE_NODE_TYPES: readonly CabinNodeType[] = ['directory', 'dataItem'];
/** Template entries: each has a body in the templates table, created and deleted with the node */
export const TEMPLATE_NODE_TYPES: readonly CabinNodeType[] = ['report', 'docTemplate', 'richTemplate'];
/** File types that cannot be opened directly: they are imported into a device task flow */
export const IMPORT_ONLY_NODE_TYPES: readonly CabinNodeType[] = ['configFile', 'document', 'table', 'image'];

/** Data permission levels: no permission, read only, read and write, administrator */
export const DATA_PERMISSION = { none: 0, read: 1, write: 2, admin: 3 } as const;
export type DataPermission = (typeof DATA_PERMISSION)[keyof typeof DATA_PERMISSION];
export type PermissionScope = 'company' | 'group' | 'user';
export interface PermissionEntry {
  scope: PermissionScope;
  /** group id or user id; null for the company-wide entry */
  subjectId: number | null;
  level: DataPermission;
}

/** Form elements of a form item (kind 11), each bound to a field */
export const FORM_ELEMENT_TYPES = [
  'input',
  'textarea',
  'number',
  'datetime',
  'radio',
  'checkbox',
  'upload',
] as const;
export type FormElementType = (typeof FORM_ELEMENT_TYPES)[number];
export interface FormElement {
  id: string;
  type: FormElementType;
  label: string;
  /** the field key the element writes */
  field: string;
  required: boolean;
  placeholder?: string;
  /** number */
  min?: number;
  max?: number;
  decimals?: number;
  /** radio / checkbox */
  options?: string[];
  /** upload */
  maxCount?: number;
  crop?: boolean;
  maxWidth?: number;
  maxHeight?: number;
}

/** Jump associations (spec points 3, 4, 5) */
export const JUMP_OPERATORS = ['eq', 'ne', 'gt', 'ge', 'lt', 'le', 'contains', 'empty', 'notEmpty'] as const;
export type JumpOperator = (typeof JUMP_OPERATORS)[number];
export interface JumpCondition {
  field: string;
  op: JumpOperator;
  /** not used by empty / notEmpty */
  value?: string | number;
}
export interface JumpMapping {
  /** target field key */
  to: string;
  /** source field key, or a fixed value */
  from?: string;
  value?: string | number;
}

/** Acquisition methods (spec point 3), in the spec's order */
export const ACQUISITION_METHODS = [
  'latest',
  'totalYesterday',
  'totalToday',
  'totalThisMonth',
  'lastOfYesterday',
  'lastOfDayBefore',
  'lastOfLastMonth',
  'lastOfMonthBefore',
  'rangeSum',
  'rangeAvg',
  'rangeMax',
  'rangeMin',
] as const;
export type AcquisitionMethod = (typeof ACQUISITION_METHODS)[number];
/** the methods that take a time range */
export const RANGE_METHODS: readonly AcquisitionMethod[] = ['rangeSum', 'rangeAvg', 'rangeMax', 'rangeMin'];

export const TIME_RANGES = [
  'today',
  'yesterday',
  'dayBefore',
  'thisMonth',
  'lastMonth',
  'monthBefore',
  'period',
] as const;
export type TimeRange = (typeof TIME_RANGES)[number];

export const AGGREGATES = ['SUM', 'MAX', 'MIN'] as const;
export type Aggregate = (typeof AGGREGATES)[number];

/** One field of an analysis job's output record */
export type AnalysisAssignment =
  | {
      /** target field key in the job's item */
      field: string;
      mode: 'ref';
      /** one or more source item fields; several are combined with `aggregate` */
      sources: Array<{ itemId: number; field: string }>;
      method: AcquisitionMethod;
      /** range methods only */
      range?: TimeRange;
      /** range 'period' only: ISO instants */
      from?: string;
      to?: string;
      aggregate?: Aggregate;
    }
  | { field: string; mode: 'custom'; value: string | number };

/** Record sources ('gateway': from a gateway, as JSON telemetry or decoded serial frames) */
export const RECORD_SOURCES = [
  'manual',
  'form',
  'http',
  'mqtt',
  'jump',
  'analysis',
  'import',
  'gateway',
] as const;
export type RecordSource = (typeof RECORD_SOURCES)[number];

/** The company time zone used for day and month boundaries unless configured otherwise */
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';
