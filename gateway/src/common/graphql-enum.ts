/**
 * A GraphQL enum over a contract's zod enum, for `registerEnumType`: the contract's values
 * (its `options`), each under the name the API gives it. `names` is keyed by those values, so a
 * value the contract adds does not compile until it is named here, nor a name without a value.
 */
export function namedValues<const Value extends string, const Name extends string>(
  contract: { readonly options: readonly Value[] },
  names: { readonly [V in Value]: Name },
): Record<Name, Value> {
  return Object.fromEntries(contract.options.map((value) => [names[value], value])) as Record<
    Name,
    Value
  >;
}
