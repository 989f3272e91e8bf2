/**
 * One screen element drawn as SVG in its own box (0…w × 0…h) from what evaluateElement says to
 * draw: the editor draws each inside its drag frame, the show page places them on one scaled
 * canvas. Colours '' are the type's own; a bound element that is not live arrives already grey.
 */
import type { ElementView, ScreenElement } from '@platform/domain';

/** the look of a type before any colour is chosen (on the dark default canvas) */
const OWN = {
  fill: '#1f3a5f',
  stroke: '#69b1ff',
  text: '#e6f4ff',
  liquid: '#1677ff',
  pipe: '#8c8c8c',
  active: '#52c41a',
  idle: '#8c8c8c',
};

export const CANVAS_BACKGROUND = '#0b1e33';

function Pipe({ e, view }: { e: Extract<ScreenElement, { type: 'line' }>; view: ElementView }) {
  const points = e.config.points.map((p) => `${p.x},${p.y}`).join(' ');
  const colour = view.stroke || view.color || (e.config.pipe ? OWN.pipe : OWN.stroke);
  const width = e.config.width;
  return (
    <>
      <polyline
        points={points}
        fill="none"
        stroke={colour}
        strokeWidth={width}
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      {e.config.pipe ? (
        <polyline
          className={view.active ? 'scr-flow' : undefined}
          points={points}
          fill="none"
          stroke={view.active ? view.fill || OWN.liquid : 'rgba(255,255,255,0.25)'}
          strokeWidth={Math.max(1, width / 3)}
          strokeDasharray="12 12"
        >
          {/* the dashes move by a CSS animation (screens.css), in the element's own units */}
        </polyline>
      ) : null}
    </>
  );
}

function Tank({ e, view }: { e: Extract<ScreenElement, { type: 'tank' }>; view: ElementView }) {
  const { w, h } = e;
  const level = view.level ?? 0;
  const inner = h - 8;
  const r = Math.min(16, w / 4);
  return (
    <>
      <rect
        x={2}
        y={2}
        width={w - 4}
        height={h - 4}
        rx={r}
        fill="rgba(255,255,255,0.06)"
        stroke={view.stroke || OWN.stroke}
        strokeWidth={e.style.strokeWidth}
      />
      <clipPath id={`tank-${e.id}`}>
        <rect x={4} y={4} width={w - 8} height={inner} rx={Math.max(0, r - 2)} />
      </clipPath>
      <rect
        clipPath={`url(#tank-${e.id})`}
        x={4}
        y={4 + inner * (1 - level)}
        width={w - 8}
        height={inner * level}
        fill={view.fill || OWN.liquid}
        data-level={level.toFixed(3)}
        className="scr-tank-level"
      />
      {view.text ? (
        <text
          x={w / 2}
          y={h / 2}
          textAnchor="middle"
          dominantBaseline="middle"
          fontSize={e.style.fontSize}
          fill={view.color || OWN.text}
          paintOrder="stroke"
          stroke="rgba(0,0,0,0.55)"
          strokeWidth={3}
        >
          {view.text}
        </text>
      ) : null}
    </>
  );
}

function Gauge({ e, view }: { e: Extract<ScreenElement, { type: 'gauge' }>; view: ElementView }) {
  const { w, h } = e;
  const cx = w / 2;
  const r = Math.max(4, Math.min(w / 2 - 8, h * 0.75 - 8));
  const cy = Math.min(h - e.style.fontSize - 8, r + 8);
  const arc = (from: number, to: number) => {
    const a = Math.PI * (1 - from);
    const b = Math.PI * (1 - to);
    return `M ${cx + r * Math.cos(a)} ${cy - r * Math.sin(a)} A ${r} ${r} 0 0 1 ${cx + r * Math.cos(b)} ${cy - r * Math.sin(b)}`;
  };
  const level = view.level ?? 0;
  const angle = Math.PI * (1 - level);
  const colour = view.fill || OWN.liquid;
  return (
    <>
      <path d={arc(0, 1)} fill="none" stroke="rgba(255,255,255,0.15)" strokeWidth={Math.max(4, r / 6)} />
      {view.level !== null ? (
        <path
          d={arc(0, Math.max(0.001, level))}
          fill="none"
          stroke={colour}
          strokeWidth={Math.max(4, r / 6)}
        />
      ) : null}
      <line
        x1={cx}
        y1={cy}
        x2={cx + (r - 6) * Math.cos(angle)}
        y2={cy - (r - 6) * Math.sin(angle)}
        stroke={view.stroke || OWN.text}
        strokeWidth={3}
        strokeLinecap="round"
      />
      <circle cx={cx} cy={cy} r={5} fill={view.stroke || OWN.text} />
      <text
        x={cx}
        y={Math.min(h - 4, cy + e.style.fontSize + 4)}
        textAnchor="middle"
        fontSize={e.style.fontSize}
        fill={view.color || OWN.text}
      >
        {view.text}
      </text>
    </>
  );
}

function Pump({ e, view }: { e: Extract<ScreenElement, { type: 'pump' }>; view: ElementView }) {
  const { w, h } = e;
  const r = Math.min(w, h) / 2 - 3;
  const blades = e.config.shape === 'fan' ? 4 : 3;
  const colour = view.active ? view.fill || OWN.active : view.fill || OWN.idle;
  return (
    <>
      <circle
        cx={w / 2}
        cy={h / 2}
        r={r}
        fill="rgba(255,255,255,0.06)"
        stroke={view.stroke || colour}
        strokeWidth={e.style.strokeWidth}
      />
      {/*
       * turned by a CSS transform animation (screens.css) about the centre of its box: the
       * unpainted circle makes that box the pump's, whatever the blades
       */}
      <g className={view.active ? 'scr-spin' : undefined}>
        <circle cx={w / 2} cy={h / 2} r={r} fill="none" stroke="none" />
        {Array.from({ length: blades }, (_, i) => (
          <ellipse
            // biome-ignore lint/suspicious/noArrayIndexKey: the blades are fixed
            key={i}
            cx={w / 2}
            cy={h / 2 - r * 0.45}
            rx={r * 0.2}
            ry={r * 0.42}
            fill={colour}
            transform={`rotate(${(360 / blades) * i} ${w / 2} ${h / 2})`}
          />
        ))}
        <circle cx={w / 2} cy={h / 2} r={r * 0.14} fill={view.stroke || OWN.text} />
      </g>
    </>
  );
}

function Valve({ e, view }: { e: Extract<ScreenElement, { type: 'valve' }>; view: ElementView }) {
  const { w, h } = e;
  const colour = view.fill || (view.active ? OWN.active : OWN.idle);
  const d =
    e.config.orientation === 'horizontal'
      ? `M 2 ${h * 0.15} L ${w / 2} ${h / 2} L 2 ${h * 0.85} Z M ${w - 2} ${h * 0.15} L ${w / 2} ${h / 2} L ${w - 2} ${h * 0.85} Z`
      : `M ${w * 0.15} 2 L ${w / 2} ${h / 2} L ${w * 0.85} 2 Z M ${w * 0.15} ${h - 2} L ${w / 2} ${h / 2} L ${w * 0.85} ${h - 2} Z`;
  return (
    <path
      d={d}
      fill={colour}
      stroke={view.stroke || OWN.stroke}
      strokeWidth={e.style.strokeWidth}
      strokeLinejoin="round"
    />
  );
}

function Label({ e, view, text }: { e: ScreenElement; view: ElementView; text: string }) {
  const align = e.type === 'text' ? e.config.align : 'center';
  const x = align === 'left' ? 4 : align === 'right' ? e.w - 4 : e.w / 2;
  const anchor = align === 'left' ? 'start' : align === 'right' ? 'end' : 'middle';
  return (
    <text
      x={x}
      y={e.h / 2}
      textAnchor={anchor}
      dominantBaseline="middle"
      fontSize={e.style.fontSize}
      fill={view.color || OWN.text}
    >
      {text}
    </text>
  );
}

/** The element's drawing in its own box (no position, no rotation: the caller places it). */
export function ElementShape({ element: e, view }: { element: ScreenElement; view: ElementView }) {
  const sw = e.style.strokeWidth;
  switch (e.type) {
    case 'rect':
      return (
        <rect
          x={sw / 2}
          y={sw / 2}
          width={Math.max(0, e.w - sw)}
          height={Math.max(0, e.h - sw)}
          rx={e.config.radius}
          fill={view.fill || OWN.fill}
          stroke={view.stroke || OWN.stroke}
          strokeWidth={sw}
        />
      );
    case 'ellipse':
      return (
        <ellipse
          cx={e.w / 2}
          cy={e.h / 2}
          rx={Math.max(0, e.w / 2 - sw / 2)}
          ry={Math.max(0, e.h / 2 - sw / 2)}
          fill={view.fill || OWN.fill}
          stroke={view.stroke || OWN.stroke}
          strokeWidth={sw}
        />
      );
    case 'line':
      return <Pipe e={e} view={view} />;
    case 'tank':
      return <Tank e={e} view={view} />;
    case 'gauge':
      return <Gauge e={e} view={view} />;
    case 'pump':
      return <Pump e={e} view={view} />;
    case 'valve':
      return <Valve e={e} view={view} />;
    case 'light': {
      const r = Math.min(e.w, e.h) / 2 - 2;
      return (
        <>
          {view.active ? (
            <circle cx={e.w / 2} cy={e.h / 2} r={r} fill={view.fill} opacity={0.35} className="scr-glow" />
          ) : null}
          <circle
            cx={e.w / 2}
            cy={e.h / 2}
            r={r * 0.8}
            fill={view.fill}
            stroke={view.stroke || 'rgba(255,255,255,0.5)'}
            strokeWidth={sw}
            data-light={view.active ? 'on' : 'off'}
          />
        </>
      );
    }
    case 'text':
      return <Label e={e} view={view} text={view.text} />;
    case 'image':
      return e.config.url ? (
        <image
          href={e.config.url}
          width={e.w}
          height={e.h}
          preserveAspectRatio={
            e.config.fit === 'fill' ? 'none' : e.config.fit === 'cover' ? 'xMidYMid slice' : 'xMidYMid meet'
          }
        />
      ) : (
        <rect
          width={e.w}
          height={e.h}
          fill="rgba(255,255,255,0.06)"
          stroke={OWN.idle}
          strokeDasharray="6 4"
        />
      );
    case 'switch': {
      const on = view.active;
      return (
        <>
          <rect
            x={sw / 2}
            y={sw / 2}
            width={Math.max(0, e.w - sw)}
            height={Math.max(0, e.h - sw)}
            rx={Math.min(e.h / 2, 12)}
            fill={view.fill || (on ? OWN.active : OWN.fill)}
            stroke={view.stroke || OWN.stroke}
            strokeWidth={sw}
          />
          <Label e={e} view={view} text={view.text || e.config.onCommand || e.config.offCommand} />
        </>
      );
    }
  }
}
