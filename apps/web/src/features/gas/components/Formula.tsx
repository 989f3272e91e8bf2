/**
 * A chemical formula as chemists write it: the counts after an element or a bracket lowered
 * (CO₂, C₃H₈). The text stays the formula as typed (a copy gives "CO2").
 */
export function Formula({ value }: { value: string }) {
  const parts = value.split(/(?<=[A-Za-z)])(\d+)/);
  return (
    <span className="gas-formula">
      {parts.map((part, i) =>
        // split's captured groups (the counts) land at the odd places
        i % 2 === 1 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one formula never move
          <sub key={i}>{part}</sub>
        ) : (
          part
        ),
      )}
    </span>
  );
}
