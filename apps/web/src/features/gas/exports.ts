/**
 * The gas lists' CSV exports: each list's columns as text, headed in the page's language. A
 * paged list exports every row under its search (all pages, `allPages`), the gas properties
 * (one list, filtered in the page) the rows its search shows.
 */
import type { TFunction } from 'i18next';
import type { ExportColumn } from '../../shared/ExportButton';
import { allPages } from '../../shared/paging';
import { formatTime } from '../../shared/time';
import type { Cylinder, CylinderStatus, GasComponent, Product, PureGas, ReferenceMaterial } from './api';
import {
  compositionText,
  cylinderValuesText,
  formatImpurity,
  formatMolarMass,
  formatPurity,
  referenceValuesText,
} from './model';

const balanceWord = (t: TFunction) => t('product.balanceOf', '平衡气');

export function componentColumns(t: TFunction): ExportColumn<GasComponent>[] {
  return [
    [t('fields.formula', '化学式'), (c) => c.formula],
    [t('fields.componentName', '名称'), (c) => c.name],
    [t('fields.molarMassUnit', '摩尔质量 (g/mol)'), (c) => formatMolarMass(c.molarMass)],
    [
      t('fields.source', '来源'),
      (c) => (c.builtIn ? t('properties.builtIn', '内置') : t('properties.custom', '自定义')),
    ],
    [t('fields.usedBy', '引用数'), (c) => c.usedBy],
  ];
}

export function pureGasColumns(t: TFunction): ExportColumn<PureGas>[] {
  return [
    [t('fields.name', '名称'), (g) => g.name],
    [t('fields.main', '主组分'), (g) => g.main],
    [t('fields.purity', '纯度'), (g) => formatPurity(g.purity)],
    [t('pure.impurities', '杂质'), (g) => g.impurities.map(formatImpurity).join('; ')],
    [t('fields.supplier', '供应商'), (g) => g.supplier],
    [t('fields.lot', '批号'), (g) => g.lot],
    [t('fields.cylinder', '钢瓶号'), (g) => g.cylinder],
  ];
}

export function productColumns(t: TFunction): ExportColumn<Product>[] {
  return [
    [t('fields.name', '名称'), (p) => p.name],
    [t('fields.code', '编号'), (p) => p.code],
    [t('fields.composition', '组成'), (p) => compositionText(p.components, p.balance, balanceWord(t))],
    [t('fields.volumeShort', '容积 (L)'), (p) => p.volumeL],
    [t('fields.pressureUnit', '压力 (MPa)'), (p) => p.pressureMPa],
    [t('fields.temperatureUnit', '温度 (°C)'), (p) => p.temperatureC],
    ['Z', (p) => p.z],
    [t('fields.notes', '备注'), (p) => p.notes],
  ];
}

export function referenceColumns(t: TFunction): ExportColumn<ReferenceMaterial>[] {
  return [
    [t('fields.name', '名称'), (r) => r.name],
    [t('fields.refCertificateNo', '证书编号'), (r) => r.certificateNo],
    [t('reference.values', '认定值'), (r) => referenceValuesText(r, balanceWord(t))],
    [t('fields.issuer', '发证机构'), (r) => r.issuer],
    [t('fields.expiresOn', '有效期至'), (r) => r.expiresOn],
    [t('fields.notes', '备注'), (r) => r.notes],
  ];
}

export function cylinderStatusText(t: TFunction, status: CylinderStatus): string {
  const text: Record<CylinderStatus, string> = {
    weighed: t('cylinder.weighed', '待分析'),
    passed: t('cylinder.passed', '验证通过'),
    failed: t('cylinder.failed', '验证未通过'),
    certified: t('cylinder.certified', '已出证书'),
  };
  return text[status];
}

/** Quality control's columns. */
export function cylinderColumns(t: TFunction): ExportColumn<Cylinder>[] {
  return [
    [t('fields.serialNumber', '气瓶编号'), (c) => c.serialNumber],
    [t('fields.product', '产品'), (c) => c.productName],
    [t('fields.gravimetricValues', '称量定值'), (c) => cylinderValuesText(c, balanceWord(t))],
    [t('fields.status', '状态'), (c) => cylinderStatusText(t, c.status)],
    [t('fields.analysedAt', '分析时间'), (c) => (c.analysedAt ? formatTime(c.analysedAt) : '')],
  ];
}

/** The certificates page's columns: a certified cylinder's certificate besides. */
export function certificateColumns(t: TFunction, certified: boolean): ExportColumn<Cylinder>[] {
  const base: ExportColumn<Cylinder>[] = [
    [t('fields.serialNumber', '气瓶编号'), (c) => c.serialNumber],
    [t('fields.product', '产品'), (c) => c.productName],
    [t('fields.gravimetricValues', '称量定值'), (c) => cylinderValuesText(c, balanceWord(t))],
  ];
  if (!certified) return base;
  return [
    ...base,
    [t('fields.certificateNo', '证书编号'), (c) => c.certificate?.number ?? ''],
    [t('fields.certifiedOn', '定值日期'), (c) => c.certificate?.certifiedOn ?? ''],
    [t('fields.expiresOn', '有效期至'), (c) => c.certificate?.expiresOn ?? ''],
  ];
}

/** Every row of a paged gas list under its search (and a cylinder list's status). */
export function allRows<T>(path: string, query: { keyword: string; status?: CylinderStatus }): Promise<T[]> {
  return allPages<T>(path, query);
}
