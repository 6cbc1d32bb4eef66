/**
 * The deepest nesting of arrays and objects the reader accepts.
 *
 * Python 3.11's `json.loads` + `json.dumps`, called at the top of a fresh interpreter (recursion
 * limit 1,000), accepts 995 nested containers and fails with RecursionError at 996; the reader
 * accepts the same and refuses deeper input with `nesting_too_deep` instead of overflowing a stack.
 */
export const MAX_JSON_DEPTH = 995;

/** Python 3.11's default limit on digits in an integer's text (`sys.get_int_max_str_digits()`). */
export const MAX_INTEGER_DIGITS = 4300;
