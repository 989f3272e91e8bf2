import { ApiOutlined, BellOutlined, DashboardOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { BrandMark } from './BrandMark';

const FEATURES = [
  { key: 'devices', icon: <ApiOutlined />, zh: '设备与网关接入，实时在线监控' },
  { key: 'data', icon: <DashboardOutlined />, zh: '数据舱、数据项与可视化看板' },
  { key: 'alarms', icon: <BellOutlined />, zh: '告警规则与智能任务自动化' },
  { key: 'access', icon: <SafetyCertificateOutlined />, zh: '多公司隔离与细粒度权限' },
] as const;

/** The wide-screen left side: product name, tagline and what the platform does. */
export function BrandPanel() {
  const { t } = useTranslation('auth');
  return (
    <aside className="auth-brand" data-testid="login-brand">
      <NetworkArt />
      <div className="auth-brand-head">
        <BrandMark size={40} />
        <span className="auth-brand-name">{t('brand.name', '智慧数据平台')}</span>
      </div>
      <div className="auth-brand-body">
        <h1 className="auth-brand-title">{t('brand.headline', '连接设备，汇聚数据，驱动智能决策')}</h1>
        <p className="auth-brand-tagline">
          {t(
            'brand.tagline',
            '面向工业企业的物联网与智慧数据管理平台，从设备接入到数据分析与告警，一站完成。',
          )}
        </p>
        <ul className="auth-brand-features">
          {FEATURES.map((feature) => (
            <li key={feature.key}>
              <span className="auth-brand-feature-icon">{feature.icon}</span>
              <span>{t(`brand.features.${feature.key}`, feature.zh)}</span>
            </li>
          ))}
        </ul>
      </div>
      <div className="auth-brand-foot">
        © {new Date().getFullYear()} {t('brand.name', '智慧数据平台')}
      </div>
    </aside>
  );
}

/** Decoration: a faint network of nodes, the platform's devices and data. */
function NetworkArt() {
  const nodes: Array<[number, number, number]> = [
    [60, 80, 5],
    [180, 40, 4],
    [300, 110, 6],
    [420, 60, 4],
    [250, 220, 5],
    [120, 260, 4],
    [380, 280, 5],
    [480, 190, 4],
  ];
  const links: Array<[number, number]> = [
    [0, 1],
    [1, 2],
    [2, 3],
    [2, 4],
    [4, 5],
    [4, 6],
    [6, 7],
    [3, 7],
    [0, 5],
  ];
  return (
    <svg className="auth-brand-art" viewBox="0 0 540 340" aria-hidden="true">
      {links.map(([a, b]) => (
        <line
          key={`${a}-${b}`}
          x1={nodes[a]![0]}
          y1={nodes[a]![1]}
          x2={nodes[b]![0]}
          y2={nodes[b]![1]}
          stroke="rgba(255,255,255,0.18)"
          strokeWidth="1.5"
        />
      ))}
      {nodes.map(([x, y, r]) => (
        <g key={`${x}-${y}`}>
          <circle cx={x} cy={y} r={r * 3} fill="rgba(120,170,255,0.10)" />
          <circle cx={x} cy={y} r={r} fill="rgba(255,255,255,0.55)" />
        </g>
      ))}
    </svg>
  );
}
