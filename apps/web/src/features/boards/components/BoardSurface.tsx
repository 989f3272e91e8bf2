/**
 * A board drawn for display: a grid board reflows to the width it is given (24 columns, rows
 * of GRID_ROW_HEIGHT px); a canvas board is drawn at its size and scaled to the screen as its
 * scale says (fit, fill or scroll, displayScale of packages/domain).
 */
import { type BoardBody, byLayer, displayScale, GRID_COLUMNS, GRID_ROW_HEIGHT } from '@platform/domain';
import { useEffect, useRef, useState } from 'react';
import { WidgetBody } from './Widgets';

export const GRID_GAP = 8;

function useSize<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setSize({ width: entry.contentRect.width, height: entry.contentRect.height });
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { ref, size };
}

export function BoardSurface({ body, fullHeight = false }: { body: BoardBody; fullHeight?: boolean }) {
  const { ref, size } = useSize<HTMLDivElement>();
  const widgets = byLayer(body.widgets).filter((w) => !w.hidden);
  if (body.mode === 'grid') {
    const col = (size.width - GRID_GAP) / GRID_COLUMNS;
    const rows = widgets.reduce((m, w) => Math.max(m, w.y + w.h), 0);
    return (
      <div
        ref={ref}
        className="board-surface board-grid"
        style={{
          background: body.background || undefined,
          height: rows * GRID_ROW_HEIGHT + GRID_GAP * 2,
          minHeight: fullHeight ? '100%' : undefined,
        }}
        data-testid="board-surface"
      >
        {size.width > 0 &&
          widgets.map((w) => (
            <div
              key={w.id}
              className={`board-widget bw-${w.type}-box`}
              data-testid={`widget-${w.id}`}
              data-widget-type={w.type}
              style={{
                left: GRID_GAP + w.x * col,
                top: GRID_GAP + w.y * GRID_ROW_HEIGHT,
                width: w.w * col - GRID_GAP,
                height: w.h * GRID_ROW_HEIGHT - GRID_GAP,
                zIndex: w.z,
              }}
            >
              <WidgetBody widget={w} />
            </div>
          ))}
      </div>
    );
  }
  const { sx, sy } = displayScale(body, size, body.scale);
  return (
    <div
      ref={ref}
      className={`board-surface board-canvas-view scale-${body.scale}`}
      data-testid="board-surface"
    >
      {size.width > 0 && (
        <div
          className="board-canvas dark"
          style={{
            width: body.width,
            height: body.height,
            background: body.background || undefined,
            transform: `scale(${sx}, ${sy})`,
          }}
        >
          {widgets.map((w) => (
            <div
              key={w.id}
              className={`board-widget bw-${w.type}-box`}
              data-testid={`widget-${w.id}`}
              data-widget-type={w.type}
              style={{ left: w.x, top: w.y, width: w.w, height: w.h, zIndex: w.z }}
            >
              <WidgetBody widget={w} />
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
