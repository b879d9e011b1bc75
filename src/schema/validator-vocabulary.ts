/**
 * How class-validator's decorator names map to JSON Schema. Keeping the vocabulary in one table makes
 * "which decorators do we understand" answerable by reading a single file.
 */

export type ValueKind = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'dto';

/** Array-level decorators: they constrain the array, never its items. */
export const ARRAY_VALIDATORS = new Set([
  'isArray',
  'arrayMinSize',
  'arrayMaxSize',
  'arrayNotEmpty',
  'arrayUnique',
  'arrayContains',
  'arrayNotContains',
]);

/** Decorators that only accept strings; they imply `type: "string"` and may add a format. */
export const STRING_FORMATS: Readonly<Record<string, string | undefined>> = {
  isEmail: 'email',
  isUrl: 'uri',
  isUuid: 'uuid',
  isDateString: 'date-time',
  isIso8601: 'date-time',
  isRFC3339: 'date-time',
  isString: undefined,
  minLength: undefined,
  maxLength: undefined,
  isLength: undefined,
  matches: undefined,
  contains: undefined,
  notContains: undefined,
  isAlpha: undefined,
  isAlphanumeric: undefined,
  isAscii: undefined,
  isBase64: undefined,
  isHexColor: undefined,
  isHexadecimal: undefined,
  isLowercase: undefined,
  isUppercase: undefined,
  isNumberString: undefined,
  isBooleanString: undefined,
  isJson: undefined,
  isJwt: undefined,
  isMongoId: undefined,
  isSemVer: undefined,
  isMimeType: undefined,
  isFqdn: undefined,
  isIp: undefined,
  isPhoneNumber: undefined,
  isMobilePhone: undefined,
  isPostalCode: undefined,
  isLocale: undefined,
  isTimeZone: undefined,
  isStrongPassword: undefined,
  isHash: undefined,
  isCurrency: undefined,
  isDecimal: undefined,
};

/** Decorators that only accept numbers. */
export const NUMBER_VALIDATORS = new Set(['min', 'max', 'isPositive', 'isNegative', 'isDivisibleBy']);

/**
 * Decorators that narrow a value without changing its JSON type; ignoring them leaves the schema a
 * faithful (slightly wider) description, and the validator still enforces them.
 */
export const NARROWING_ONLY = new Set([
  'isDefined',
  'isNotEmpty',
  'notEquals',
  'isNotIn',
  'isLatitude',
  'isLongitude',
  'minDate',
  'maxDate',
]);
