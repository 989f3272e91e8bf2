import { PrinterOutlined } from '@ant-design/icons';
import { Button, Drawer, Grid, Skeleton, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '../../../shared/LoadFailed';
import { type Contract, contractApi, useContract } from '../contracts-api';
import { ContractStateActions } from './ContractStateActions';
import { ContractStatusTag } from './OrderContract';
import '../../doctemplates/doctemplates.css';

/**
 * One contract as its page of paper: print (the browser's print, which also saves a PDF),
 * download for Word, sign or delete a draft. The HTML comes from the server: the template was
 * sanitised on save and every value escaped when the contract was made.
 */
export function ContractDrawer({
  id,
  onClose,
  onSign,
  onDelete,
}: {
  id: number | null;
  onClose: () => void;
  onSign: (contract: Contract) => Promise<void>;
  onDelete: (contract: Contract) => Promise<void>;
}) {
  const { t } = useTranslation('sales');
  const wide = Grid.useBreakpoint().md === true;
  const contract = useContract(id);
  const data = contract.data;

  const download = async () => {
    if (!data) return;
    try {
      await contractApi.download(data);
    } catch {
      // the download helper showed the error
    }
  };

  return (
    <Drawer
      open={id != null}
      onClose={onClose}
      size={wide ? 920 : '100%'}
      title={
        data ? (
          <Space size={8} wrap>
            <span data-testid="contract-drawer-title">{data.number}</span>
            <ContractStatusTag status={data.status} />
          </Space>
        ) : (
          ''
        )
      }
      extra={
        data ? (
          <Space wrap>
            <Button icon={<PrinterOutlined />} onClick={() => window.print()} data-testid="contract-print">
              {t('contracts.print')}
            </Button>
            <Button onClick={download} data-testid="contract-download">
              {t('contracts.download')}
            </Button>
            <ContractStateActions
              contract={data}
              inRow={false}
              onSign={async () => {
                await onSign(data);
                await contract.refetch();
              }}
              onDelete={() => onDelete(data)}
            />
          </Space>
        ) : null
      }
      destroyOnHidden
    >
      {contract.isError ? <LoadFailed onRetry={() => void contract.refetch()} /> : null}
      {data ? (
        <div className="dt-print-area dt-paper sales-contract-paper">
          <div
            className="dt-doc-body"
            data-testid="contract-body"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: server-sanitised template with escaped values
            dangerouslySetInnerHTML={{ __html: data.html }}
          />
        </div>
      ) : contract.isError ? null : (
        <Skeleton active />
      )}
    </Drawer>
  );
}
