/**
 * The editor's canvas: the screen at its fixed size, scaled down to the room there is, each
 * element in a react-rnd frame (drag to move, handles to resize; a locked one stays put, a
 * hidden one is drawn faint). Elements draw their own look, as if unbound.
 */
import { byLayer, evaluateElement, type Rect, type ScreenBody, type ScreenElement } from '@platform/domain';
import { useEffect, useRef, useState } from 'react';
import { Rnd } from 'react-rnd';
import { CANVAS_BACKGROUND, ElementShape } from './ElementShape';

function designView(e: ScreenElement) {
  const view = evaluateElement({ ...e, binding: null } as ScreenElement, null, 0, 60);
  // a level and a value to see the tank's and gauge's look by
  if (e.type === 'tank' || e.type === 'gauge')
    return {
      ...view,
      level: 0.5,
      text: e.binding ? (e.type === 'tank' && !e.config.showValue ? '' : '50') : '',
    };
  if (e.type === 'text' && e.binding)
    return { ...view, text: `${e.config.text} 0.0 ${e.config.unit}`.trim() };
  if (e.type === 'light') return { ...view, fill: e.config.onColor, active: true };
  return view;
}

export function EditCanvas({
  body,
  selected,
  readOnly,
  onSelect,
  onPlace,
}: {
  body: ScreenBody;
  selected: string | null;
  readOnly: boolean;
  onSelect: (id: string | null) => void;
  onPlace: (id: string, rect: Rect) => void;
}) {
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
    <div ref={outer} className="scr-edit-outer" data-testid="screen-canvas-outer">
      {scale > 0 && (
        <div className="scr-edit-box" style={{ width: body.width * scale, height: body.height * scale }}>
          {/* biome-ignore lint/a11y/noStaticElementInteractions: pressing the empty canvas clears the selection */}
          <div
            className="scr-edit-canvas"
            data-testid="screen-canvas"
            data-scale={scale}
            style={{
              width: body.width,
              height: body.height,
              transform: `scale(${scale})`,
              background: body.background || CANVAS_BACKGROUND,
            }}
            onMouseDown={(e) => e.target === e.currentTarget && onSelect(null)}
          >
            {byLayer(body.elements).map((e) => (
              <Rnd
                key={e.id}
                scale={scale}
                bounds="parent"
                size={{ width: e.w, height: e.h }}
                position={{ x: e.x, y: e.y }}
                disableDragging={e.locked || readOnly}
                enableResizing={!e.locked && !readOnly && e.id === selected}
                style={{ zIndex: e.z }}
                onDragStart={() => onSelect(e.id)}
                onDragStop={(_, d) => {
                  if (d.x !== e.x || d.y !== e.y)
                    onPlace(e.id, { x: Math.round(d.x), y: Math.round(d.y), w: e.w, h: e.h });
                }}
                onResizeStop={(_, __, ref, ___, pos) =>
                  onPlace(e.id, {
                    x: Math.round(pos.x),
                    y: Math.round(pos.y),
                    w: Math.round(ref.offsetWidth),
                    h: Math.round(ref.offsetHeight),
                  })
                }
              >
                {/* biome-ignore lint/a11y/noStaticElementInteractions: pressing an element selects it for the toolbar and the property panel */}
                <div
                  className={`scr-frame${e.id === selected ? ' selected' : ''}${e.hidden ? ' is-hidden' : ''}${e.locked ? ' is-locked' : ''}`}
                  data-testid={`screen-el-${e.id}`}
                  data-type={e.type}
                  onMouseDown={() => onSelect(e.id)}
                >
                  <svg
                    width="100%"
                    height="100%"
                    viewBox={`0 0 ${e.w} ${e.h}`}
                    preserveAspectRatio="none"
                    overflow="visible"
                    aria-hidden
                  >
                    <ElementShape element={e} view={designView(e)} />
                  </svg>
                </div>
              </Rnd>
            ))}
          </div>
        </div>
      )}
    </div>
  );
}
