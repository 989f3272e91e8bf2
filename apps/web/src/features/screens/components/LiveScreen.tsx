/**
 * A saved screen drawn live on one SVG canvas scaled to the width it is given (fit, the aspect
 * kept): every element through evaluateElement at the server's "now". A bound element whose
 * value is stale or missing is grey and still, its age on hover. Switches are pressed here.
 */
import {
  byLayer,
  type ElementView,
  evaluateElement,
  type PointSample,
  type ScreenBody,
  type ScreenElement,
} from '@platform/domain';
import { useTranslation } from 'react-i18next';
import { ageText, pointKey } from '../live';
import { CANVAS_BACKGROUND, ElementShape } from './ElementShape';

function useHoverText() {
  const { t } = useTranslation('screens');
  const units = {
    s: t('age.s', '秒'),
    min: t('age.min', '分钟'),
    h: t('age.h', '小时'),
    d: t('age.d', '天'),
  };
  return (view: ElementView): string | null => {
    if (!view.bound) return null;
    if (view.quality === 'none') return t('quality.none', '无数据');
    const age = ageText(view.ageSeconds ?? 0, units);
    return view.quality === 'live'
      ? t('quality.live', '实时 · {{age}}前', { age })
      : t('quality.stale', '数据过期：最后一次在 {{age}}前', { age });
  };
}

export function LiveScreen({
  body,
  samples,
  now,
  onSwitch,
  switchEnabled,
  label,
}: {
  body: ScreenBody;
  samples: Map<string, PointSample>;
  now: number;
  onSwitch: (element: Extract<ScreenElement, { type: 'switch' }>, view: ElementView) => void;
  switchEnabled: boolean;
  /** what the picture is, for screen readers */
  label: string;
}) {
  const hover = useHoverText();
  return (
    <svg
      className="scr-live"
      viewBox={`0 0 ${body.width} ${body.height}`}
      preserveAspectRatio="xMidYMid meet"
      style={{
        background: body.background || CANVAS_BACKGROUND,
        aspectRatio: `${body.width} / ${body.height}`,
      }}
      data-testid="screen-live"
      role="img"
      aria-label={label}
    >
      {byLayer(body.elements).map((e) => {
        const sample = e.binding ? (samples.get(pointKey(e.binding.itemId, e.binding.field)) ?? null) : null;
        const view = evaluateElement(e, sample, now, body.staleSeconds);
        if (!view.visible) return null;
        const title = hover(view);
        const isSwitch = e.type === 'switch';
        const classes = [
          'scr-el',
          view.blink ? 'scr-blink' : '',
          isSwitch ? (switchEnabled ? 'scr-switch' : 'scr-switch disabled') : '',
        ]
          .filter(Boolean)
          .join(' ');
        return (
          // biome-ignore lint/a11y/noStaticElementInteractions: a switch is pressed like a button; the keyboard reaches it by its role
          <g
            key={e.id}
            className={classes}
            transform={`translate(${e.x} ${e.y})${view.rotate ? ` rotate(${view.rotate} ${e.w / 2} ${e.h / 2})` : ''}`}
            data-testid={`show-el-${e.id}`}
            data-type={e.type}
            data-quality={view.bound ? view.quality : 'static'}
            data-text={view.text}
            data-active={view.active ? '1' : '0'}
            data-rule={view.rule ?? ''}
            role={isSwitch ? 'button' : undefined}
            tabIndex={isSwitch && switchEnabled ? 0 : undefined}
            aria-disabled={isSwitch && !switchEnabled ? true : undefined}
            onClick={isSwitch && switchEnabled ? () => onSwitch(e, view) : undefined}
            onKeyDown={
              isSwitch && switchEnabled
                ? (k) => {
                    if (k.key === 'Enter' || k.key === ' ') onSwitch(e, view);
                  }
                : undefined
            }
          >
            {title ? <title>{title}</title> : null}
            <ElementShape element={e} view={view} />
          </g>
        );
      })}
    </svg>
  );
}
