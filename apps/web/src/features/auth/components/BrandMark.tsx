/** The product mark (same drawing as the favicon). */
export function BrandMark({ size = 40 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" className="auth-brand-mark">
      <rect width="64" height="64" rx="14" fill="#1677ff" />
      <path
        d="M14 44V20l18 12 18-12v24"
        fill="none"
        stroke="#fff"
        strokeWidth="5"
        strokeLinejoin="round"
        strokeLinecap="round"
      />
    </svg>
  );
}
