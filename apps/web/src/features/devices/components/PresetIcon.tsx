/**
 * The device picture presets (spec point 9; packages/domain DEVICE_PICTURE_PRESETS) drawn as
 * small line drawings, so a device without a photo still reads as what it is. Unknown ids draw
 * the default (dtu).
 */
import { DEFAULT_DEVICE_PICTURE, type DevicePicturePreset, isDevicePicturePreset } from '@platform/domain';
import type { ReactNode } from 'react';

const STROKE = { fill: 'none', stroke: 'currentColor', strokeWidth: 2.2, strokeLinejoin: 'round' } as const;

const DRAWINGS: Record<DevicePicturePreset, ReactNode> = {
  // a DTU: a box with an antenna, status lights and two terminal ports
  dtu: (
    <>
      <rect x="8" y="18" width="32" height="22" rx="3" {...STROKE} />
      <path d="M33 18V7" {...STROKE} strokeLinecap="round" />
      <circle cx="33" cy="6" r="2" fill="currentColor" />
      <circle cx="15" cy="25" r="2" fill="#52c41a" />
      <circle cx="21" cy="25" r="2" fill="#1677ff" />
      <path d="M13 34h6M23 34h6" {...STROKE} strokeLinecap="round" />
    </>
  ),
  // a gateway: a router with three antennas and a row of ports
  gateway: (
    <>
      <rect x="6" y="24" width="36" height="14" rx="3" {...STROKE} />
      <path d="M12 24V12M24 24V9M36 24V12" {...STROKE} strokeLinecap="round" />
      <path d="M12 31h3M18 31h3M24 31h3" {...STROKE} strokeLinecap="round" />
      <circle cx="35" cy="31" r="2" fill="#52c41a" />
    </>
  ),
  // an electricity meter: a display window and a dial
  meter: (
    <>
      <rect x="10" y="6" width="28" height="36" rx="3" {...STROKE} />
      <rect x="15" y="11" width="18" height="8" rx="1" {...STROKE} />
      <circle cx="24" cy="31" r="6" {...STROKE} />
      <path d="M24 31l3-3" {...STROKE} strokeLinecap="round" />
    </>
  ),
  // a PLC: a rail module with I/O terminals top and bottom
  plc: (
    <>
      <rect x="8" y="10" width="32" height="28" rx="2" {...STROKE} />
      <path d="M12 10V6M18 10V6M24 10V6M30 10V6M36 10V6" {...STROKE} strokeLinecap="round" />
      <path d="M12 42v-4M18 42v-4M24 42v-4M30 42v-4M36 42v-4" {...STROKE} strokeLinecap="round" />
      <rect x="13" y="17" width="12" height="8" rx="1" {...STROKE} />
      <circle cx="33" cy="19" r="1.8" fill="#52c41a" />
      <circle cx="33" cy="25" r="1.8" fill="#faad14" />
    </>
  ),
  // a sensor: a probe with signal arcs
  sensor: (
    <>
      <rect x="19" y="20" width="10" height="20" rx="5" {...STROKE} />
      <path d="M24 40v4" {...STROKE} strokeLinecap="round" />
      <path d="M16 14a11 11 0 0 1 16 0M12 9a17 17 0 0 1 24 0" {...STROKE} strokeLinecap="round" />
    </>
  ),
  // a control cabinet: double doors with handles and a vent
  cabinet: (
    <>
      <rect x="10" y="5" width="28" height="38" rx="2" {...STROKE} />
      <path d="M24 5v38" {...STROKE} />
      <path d="M21 22v5M27 22v5" {...STROKE} strokeLinecap="round" />
      <path d="M14 10h6M14 13h6M28 10h6M28 13h6" {...STROKE} strokeLinecap="round" />
    </>
  ),
  // a boiler: a drum with a chimney and a flame
  boiler: (
    <>
      <rect x="9" y="14" width="26" height="28" rx="4" {...STROKE} />
      <path d="M30 14V5h6v9" {...STROKE} />
      <path
        d="M22 36c-4 0-6-3-5-6 1-2 3-3 3-6 3 2 6 5 6 8 0 2-2 4-4 4z"
        fill="#fa8c16"
        stroke="#fa8c16"
        strokeWidth="1"
      />
    </>
  ),
  // a pump: a round casing with an inlet and an outlet on a base
  pump: (
    <>
      <circle cx="22" cy="24" r="10" {...STROKE} />
      <circle cx="22" cy="24" r="3" fill="currentColor" />
      <path d="M4 24h8M22 14V7h14" {...STROKE} />
      <path d="M12 40h22M16 34l-2 6M28 34l2 6" {...STROKE} strokeLinecap="round" />
    </>
  ),
};

export function PresetIcon({ preset, size = 40 }: { preset: string; size?: number }) {
  const id = isDevicePicturePreset(preset) ? preset : DEFAULT_DEVICE_PICTURE;
  return (
    <svg
      viewBox="0 0 48 48"
      width={size}
      height={size}
      role="img"
      aria-label={id}
      data-preset={id}
      className="dv-preset"
    >
      {DRAWINGS[id]}
    </svg>
  );
}
