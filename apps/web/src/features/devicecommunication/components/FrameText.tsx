/** A packet's bytes in hex, its appended CRC set apart so a person sees which two bytes the platform adds. */
export function FrameText({ frame, crc, testId }: { frame: string; crc?: string | null; testId?: string }) {
  return (
    <span className="dc-frame" data-testid={testId}>
      {frame}
      {crc ? (
        <>
          {' '}
          <span className="dc-crc">{crc}</span>
        </>
      ) : null}
    </span>
  );
}
