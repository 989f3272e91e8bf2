/**
 * The board designer: a grid of 24 columns (react-grid-layout) for office dashboards, or a
 * fixed canvas with absolute placement (react-rnd) for big screens. Every change is an edit of
 * packages/domain (boards/edit.ts) recorded in the undo history; locked widgets do not move;
 * hidden ones are drawn faint here and not at all on the display.
 */
import {
  type BoardBody,
  byLayer,
  GRID_COLUMNS,
  GRID_ROW_HEIGHT,
  type Rect,
  type Widget,
} from '@platform/domain';
import { useEffect, useRef, useState } from 'react';
import ReactGridLayout, { type Layout, useContainerWidth } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import 'react-resizable/css/styles.css';
import { Rnd } from 'react-rnd';
import { GRID_GAP } from './BoardSurface';
import { WidgetBody } from './Widgets';

interface Props {
  body: BoardBody;
  selected: string | null;
  onSelect: (id: string | null) => void;
  onPlace: (rects: Map<string, Rect>) => void;
}

function Frame({
  widget,
  selected,
  onSelect,
}: {
  widget: Widget;
  selected: boolean;
  onSelect: (id: string) => void;
}) {
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: pressing a widget selects it for the toolbar and the property panel
    <div
      onMouseDown={() => onSelect(widget.id)}
      className={`designer-widget${selected ? ' selected' : ''}${widget.hidden ? ' is-hidden' : ''}${widget.locked ? ' is-locked' : ''}`}
      data-testid={`designer-widget-${widget.id}`}
      data-widget-type={widget.type}
    >
      <div className="board-widget-inner">
        <WidgetBody widget={widget} />
      </div>
    </div>
  );
}

function GridDesigner({ body, selected, onSelect, onPlace }: Props) {
  const { width, containerRef, mounted } = useContainerWidth();
  const layout: Layout = body.widgets.map((w) => ({
    i: w.id,
    x: w.x,
    y: w.y,
    w: w.w,
    h: w.h,
    static: w.locked,
  }));
  const commit = (next: Layout) =>
    onPlace(new Map(next.map((l) => [l.i, { x: l.x, y: l.y, w: l.w, h: l.h }])));
  return (
    <div
      ref={containerRef}
      className="designer-grid"
      style={{ background: body.background || undefined }}
      data-testid="designer-surface"
    >
      {mounted && (
        <ReactGridLayout
          layout={layout}
          width={width}
          gridConfig={{
            cols: GRID_COLUMNS,
            rowHeight: GRID_ROW_HEIGHT - GRID_GAP,
            margin: [GRID_GAP, GRID_GAP],
          }}
          onDragStop={(next) => commit(next)}
          onResizeStop={(next) => commit(next)}
        >
          {body.widgets.map((w) => (
            <div key={w.id}>
              <Frame widget={w} selected={w.id === selected} onSelect={onSelect} />
            </div>
          ))}
        </ReactGridLayout>
      )}
    </div>
  );
}

function CanvasDesigner({ body, selected, onSelect, onPlace }: Props) {
  const outer = useRef<HTMLDivElement>(null);
  const [available, setAvailable] = useState(0);
  useEffect(() => {
    const el = outer.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => entry && setAvailable(entry.contentRect.width));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const scale = available > 0 ? Math.min(1, (available - 16) / body.width) : 0;
  return (
    <div ref={outer} className="designer-canvas-outer" data-testid="designer-surface">
      {scale > 0 && (
        <div
          className="designer-canvas-box"
          style={{ width: body.width * scale, height: body.height * scale }}
        >
          {/* biome-ignore lint/a11y/noStaticElementInteractions: pressing the empty canvas clears the selection */}
          <div
            className="board-canvas dark designer-canvas"
            style={{
              width: body.width,
              height: body.height,
              transform: `scale(${scale})`,
              background: body.background || undefined,
            }}
            onMouseDown={(e) => e.target === e.currentTarget && onSelect(null)}
          >
            {byLayer(body.widgets).map((w) => (
              <Rnd
                key={w.id}
                scale={scale}
                bounds="parent"
                size={{ width: w.w, height: w.h }}
                position={{ x: w.x, y: w.y }}
                disableDragging={w.locked}
                enableResizing={!w.locked}
                style={{ zIndex: w.z }}
                onDragStop={(_, d) => {
                  if (d.x !== w.x || d.y !== w.y)
                    onPlace(new Map([[w.id, { x: d.x, y: d.y, w: w.w, h: w.h }]]));
                }}
                onResizeStop={(_, __, ref, ___, pos) =>
                  onPlace(new Map([[w.id, { x: pos.x, y: pos.y, w: ref.offsetWidth, h: ref.offsetHeight }]]))
                }
              >
                <Frame widget={w} selected={w.id === selected} onSelect={onSelect} />
              </Rnd>
            ))}
          </div>
        </div>
      )}
    </div>
  );
}

export function Designer(props: Props) {
  return props.body.mode === 'grid' ? <GridDesigner {...props} /> : <CanvasDesigner {...props} />;
}
