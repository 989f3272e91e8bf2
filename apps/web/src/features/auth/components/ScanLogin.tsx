import {
  CheckCircleFilled,
  ExclamationCircleOutlined,
  QrcodeOutlined,
  ReloadOutlined,
} from '@ant-design/icons';
import { Button, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFinishLogin } from '../hooks';
import { useScanLogin } from '../scan';
import { QrImage } from './QrImage';
import { EMBED_HEIGHT, EMBED_WIDTH, QR_FRAME, QR_SIZE } from './qrFrame';
import { ScanBindForm } from './ScanBindForm';

/**
 * The scan-code tab: the QR code (drawn here for the stand-in, or the messaging app's own QR
 * page in a frame), its states, and the phone binding of a first scan.
 */
export function ScanLogin({ active, phone }: { active: boolean; phone: string }) {
  const { t } = useTranslation('auth');
  const finish = useFinishLogin();
  const scan = useScanLogin(active, finish);
  const { phase, code } = scan;

  if (phase === 'unavailable') {
    return (
      <div className="auth-scan" data-testid="scan-unavailable">
        <QrcodeOutlined className="auth-scan-unavailable-icon" />
        <Typography.Text className="auth-scan-hint">
          {t('scan.unavailable', '本平台未配置扫码登录，请使用密码或验证码登录')}
        </Typography.Text>
      </div>
    );
  }

  if (phase === 'needPhone' && code) {
    return (
      <ScanBindForm
        sceneId={code.sceneId}
        nickname={scan.nickname}
        phone={phone}
        onToken={finish}
        onExpired={scan.expire}
        onRescan={scan.refresh}
      />
    );
  }

  const overlay = (() => {
    switch (phase) {
      case 'scanned':
        return (
          <div className="auth-qr-overlay" data-testid="scan-scanned">
            <CheckCircleFilled className="auth-qr-overlay-icon success" />
            <span>{t('scan.scanned', '已扫码，请在手机上确认')}</span>
          </div>
        );
      case 'loggingIn':
        return (
          <div className="auth-qr-overlay" data-testid="scan-logging-in">
            <Spin />
            <span>{t('scan.loggingIn', '正在登录…')}</span>
          </div>
        );
      case 'expired':
      case 'failed':
        return (
          <div className="auth-qr-overlay" data-testid={phase === 'expired' ? 'scan-expired' : 'scan-failed'}>
            <ExclamationCircleOutlined className="auth-qr-overlay-icon" />
            <span>
              {phase === 'expired' ? t('scan.expired', '二维码已失效') : t('scan.failed', '二维码加载失败')}
            </span>
            <Button
              type="primary"
              icon={<ReloadOutlined />}
              onClick={scan.refresh}
              data-testid="scan-refresh"
            >
              {t('scan.refresh', '刷新二维码')}
            </Button>
          </div>
        );
      default:
        return null;
    }
  })();

  const embed = code?.display === 'embed';
  const live = phase === 'waiting' || phase === 'scanned';
  const frameSize = embed ? { width: EMBED_WIDTH, height: EMBED_HEIGHT } : QR_FRAME;

  return (
    <div className="auth-scan" data-testid="scan-panel">
      <div className={embed ? 'auth-qr-frame auth-qr-embed' : 'auth-qr-frame'} style={frameSize}>
        {code && embed ? (
          // the provider's page shows its QR code; after the scan the provider sends this frame
          // to the server's callback, and the polling below moves the page on
          live ? (
            <iframe
              src={code.scanUrl}
              title={t('scan.qrAlt', '扫码登录二维码')}
              width={EMBED_WIDTH}
              height={EMBED_HEIGHT}
              sandbox="allow-scripts allow-same-origin"
              referrerPolicy="no-referrer"
              data-testid="scan-embed"
            />
          ) : null
        ) : code ? (
          <QrImage value={code.scanUrl} size={QR_SIZE} alt={t('scan.qrAlt', '扫码登录二维码')} />
        ) : phase === 'loading' ? (
          <Spin />
        ) : null}
        {overlay}
      </div>
      <Typography.Text className="auth-scan-hint">
        {t('scan.hint', '请使用手机扫描二维码登录')}
      </Typography.Text>
      {code && !embed && live ? (
        <Typography.Link
          href={code.scanUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="auth-scan-link"
          copyable={{
            text: code.scanUrl,
            tooltips: [t('scan.copy', '复制链接'), t('scan.copied', '已复制')],
          }}
          data-testid="scan-url"
        >
          {t('scan.openLink', '在手机或新标签页打开')}
        </Typography.Link>
      ) : null}
    </div>
  );
}
