import { detail, group, page } from './helpers';
import type { RouteEntry } from './types';

/** Full paths of the list pages that open the detail pages below. */
export const CAPSULE = '/smartdata/datacapsule';
export const BOARDS = '/smartdata/dashboard3';
export const BOARD_PLAYS = '/smartdata/dashboarddisplay';
export const ITEM_GROUPS = '/project/itemgroup';
export const DEVICE_LIST = '/devicemanagement/devicelist';
export const CLOUD_DEVICES = '/devicecommunication/device';

const CHART_PARAMS = ':itemId/:chartName/:typeCode/:chartId/:itemName';
const METER_PARAMS = ':electricMeterId/:electricMeterName';
const REPORT_PARAMS = `:year/:month/${METER_PARAMS}`;

/** /smartdata: data cabin (directory), its item/chart/report editors, dashboards and carousels. */
export const SMART_DATA_ROUTE: RouteEntry = group(
  '/smartdata',
  'smartData',
  'smart_data',
  'DatabaseOutlined',
  [
    page('datacapsule', 'dataCapsule', 'sd_capsule', 'FolderOpenOutlined'),
    page('Doctemplate', 'docTemplate', 'sd_capsule', 'FileWordOutlined'),
    page('contenttemplate', 'contentTemplate', 'sd_capsule', 'FileTextOutlined'),
    page('dashboard3', 'dashboard', 'sd_board', 'DashboardOutlined'),
    page('dashboarddisplay', 'dashboardDisplay', 'sd_board_play', 'FundProjectionScreenOutlined'),
    page('test', 'smartDataTest', 'test_pages', 'BugOutlined'),
    // data cabin: data items, values, forms, charts, report templates, devices and meters
    detail(
      'richEditorTemplate/:itemId/:valueId/:itemName/:objId',
      'richEditorTemplate',
      'sd_capsule',
      CAPSULE,
    ),
    detail('reportTemplate/:entityId/:name', 'reportTemplate', 'sd_capsule', CAPSULE),
    detail('editTemplate/:entityId/:name', 'editTemplate', 'sd_capsule', CAPSULE),
    detail(
      'datavalue/:itemId/:itemName/:itemType/:objId/:pid/:parentDirectory',
      'dataValue',
      'sd_capsule',
      CAPSULE,
    ),
    detail('formpage/:itemId/:itemName/:objId', 'formPage', 'sd_capsule', CAPSULE),
    detail(`chartpages/${CHART_PARAMS}`, 'chartPages', 'sd_capsule', CAPSULE),
    detail(`ChartDialogs/${CHART_PARAMS}`, 'chartDialogs', 'sd_capsule', CAPSULE),
    detail(
      'ChildValue/:objId/:itemId/:itemName/:parentItemId/:parentObjId/:recordId/:parentName/:filterList/:parentTitleColumn',
      'childValue',
      'sd_capsule',
      CAPSULE,
    ),
    detail('dataitem/config/:itemId/:itemName/:id', 'dataItemConfig', 'sd_capsule', CAPSULE),
    detail('chart/chartConfig/:itemId/:chartId/:itemName/:id', 'chartConfig', 'sd_capsule', CAPSULE),
    detail('device/deviceconfig/:deviceId', 'deviceConfig', 'sd_capsule', CAPSULE),
    detail('device/dtu/config/:deviceId', 'dtuConfig', 'sd_capsule', CAPSULE),
    detail(`electricMeterConfig/${METER_PARAMS}`, 'electricMeterConfig', 'sd_capsule', CAPSULE),
    // item groups are listed under /project/itemgroup
    detail('itemgroup/config/:groupId', 'itemGroupConfig', 'sd_item_group', ITEM_GROUPS),
    // dashboards and dashboard carousels
    detail('currentshowdashboard/:boardId', 'currentShowDashboard', 'sd_board', BOARDS),
    detail('dashboard3/EditBoard/:boardId/:boardName/:id', 'editBoard', 'sd_board', BOARDS),
    detail('boardconfig/:boardId/:templateCode', 'boardConfig', 'sd_board', BOARDS),
    detail('configboardplay/:boardPlayId', 'configBoardPlay', 'sd_board_play', BOARD_PLAYS),
  ],
);

/** Top-level full-screen pages (no layout menu entry), opened from the pages named by activeMenu. */
export const STANDALONE_ROUTES: RouteEntry[] = [
  // dashboards, carousels and big screens
  detail('/dashboardmarquee/:boardPlayId', 'dashboardMarquee', 'sd_board_play', BOARD_PLAYS),
  detail('/big_screen/:boardPlayId', 'bigScreen', 'sd_board_play', BOARD_PLAYS),
  detail('/editblankboard/:boardId/:boardName/:boardType', 'editBlankBoard', 'sd_board', BOARDS),
  detail('/showdashboard/:boardId', 'showDashboard', 'sd_board', BOARDS),
  // meters, reports and inverters of the data cabin
  detail(`/standardElectricMeter/${METER_PARAMS}`, 'standardElectricMeter', 'sd_capsule', CAPSULE),
  detail(`/virtualElectricMeter/${METER_PARAMS}`, 'virtualElectricMeter', 'sd_capsule', CAPSULE),
  detail('/previewReport/:entityId', 'previewReport', 'sd_capsule', CAPSULE),
  detail(`/standardReport/${REPORT_PARAMS}`, 'standardReport', 'sd_capsule', CAPSULE),
  detail(`/virtualReport/${REPORT_PARAMS}`, 'virtualReport', 'sd_capsule', CAPSULE),
  detail('/inverterDashboard/:inverterId/:inverterName', 'inverterDashboard', 'sd_capsule', CAPSULE),
  // gateways: charts, flow charts, configuration tools, firmware
  detail('/dtuChart/:deviceId', 'dtuChart', 'dm_list', DEVICE_LIST),
  detail('/nssFlowChart/:deviceId/:deviceName/:lang', 'nssFlowChart', 'dm_list', DEVICE_LIST),
  detail('/nssFlowChart4D/:deviceId/:deviceName', 'nssFlowChart4D', 'dm_list', DEVICE_LIST),
  detail('/flowChart/:deviceId/:deviceName', 'flowChart', 'dm_list', DEVICE_LIST),
  detail('/FlowChart6E/:deviceId/:deviceName', 'flowChart6E', 'dm_list', DEVICE_LIST),
  detail('/dataflow/:deviceId/:deviceType/:deviceName', 'dataFlow', 'dm_list', DEVICE_LIST),
  detail('/editConfigurationTool/:deviceId', 'editConfigurationTool', 'dm_list', DEVICE_LIST),
  detail('/editConfigurationTool1/:deviceId', 'editConfigurationTool1', 'dm_list', DEVICE_LIST),
  detail('/showConfigurationTool/:deviceId', 'showConfigurationTool', 'dm_list', DEVICE_LIST),
  detail('/NssVisualization/:deviceId', 'nssVisualization', 'dm_list', DEVICE_LIST),
  detail('/nssPreview/:deviceId', 'nssPreview', 'dm_list', DEVICE_LIST),
  detail('/upgradeCfg/:deviceId/:deviceName', 'upgradeCfg', 'dm_list', DEVICE_LIST),
  detail(
    '/operationLog/:deviceId/:productId/:serialNumber/:typeId/:deviceName',
    'operationLog',
    'dm_list',
    DEVICE_LIST,
  ),
  detail(
    '/upgradeVersion/:nextVersion/:currentVersion/:serialNumber',
    'upgradeVersion',
    'dm_list',
    DEVICE_LIST,
  ),
  detail('/releaseNote/:version/:typeId', 'releaseNote', 'dm_list', DEVICE_LIST),
  detail('/comDebug', 'comDebug', 'cd_device', CLOUD_DEVICES),
  // rules and alarms
  detail('/intelligentrules/AddRule', 'addRule', 'sa_rules', '/taskmanagement/intelligentrules', {
    noCache: true,
  }),
  detail('/alertdashboard', 'alertDashboard', 'cs_info', '/cloudSurveillance/alertLog', { noCache: true }),
];
