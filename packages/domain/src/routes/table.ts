/**
 * Route table of seed point 2. BASE_ROUTES are always present; ASYNC_ROUTES are filtered by
 * the user's menu codes (filterRoutes). `name` is unique over both lists, titles are
 * `menu.<name>` (routes/locales; the base routes' in routes/locales/base), paths use react-router syntax. ASYNC_ROUTES are in sidebar
 * order: data cabin and dashboards, alarm, projects, sales, production, inventory, devices,
 * gas calculation, energy, users, resources, smart tasks, personal center, system settings,
 * system maintenance; then the hidden full-screen pages and the test pages.
 */
import { detail, group, page } from './helpers';
import { SMART_DATA_ROUTE, STANDALONE_ROUTES } from './smartdata';
import type { RouteEntry } from './types';

// the routes present without a login live in a module of their own, so the login page can load
// them without the whole table
export { BASE_ROUTES } from './base';

const CLOUD_SURVEILLANCE = group(
  '/cloudSurveillance',
  'cloudSurveillance',
  'cloud_surveillance',
  'AlertOutlined',
  [
    page('alertLog', 'alertLog', 'cs_info', 'BellOutlined'),
    page('alertRule', 'alertRule', 'cs_rules', 'ControlOutlined'),
    page('dataUpdate', 'dataUpdate', 'cs_sditem_update', 'SyncOutlined'),
  ],
);

const PROJECT_LIST = '/project/projectList';
const PROJECT_MENU_ITEM_GROUP = '/project/projectMenu/:projectId/itemGroup';
const PROJECT = group('/project', 'project', 'project_management', 'ProjectOutlined', [
  page('projectList', 'projectList', 'my_projects', 'UnorderedListOutlined'),
  page('itemgroup', 'itemGroup', 'sd_item_group', 'GroupOutlined'),
  detail('projectConfig/:projectId/:itemName', 'projectConfig', 'my_projects', PROJECT_LIST),
  // per-project side menu (titled with the project name); the tab strip updates
  // visited views under project/projectMenu/ in place, and every view depends on :projectId
  detail('projectMenu/:projectId', 'projectMenu', 'my_projects', PROJECT_LIST, {
    children: [
      page('home', 'projectHome', 'my_projects', 'HomeOutlined', { noCache: true }),
      page('overview', 'projectOverview', 'my_projects', 'PieChartOutlined', { noCache: true }),
      page('itemGroup', 'projectItemGroup', 'my_projects', 'GroupOutlined', { noCache: true }),
      page('task', 'projectTask', 'my_projects', 'CarryOutOutlined', { noCache: true }),
      page('3DModel', 'project3dModel', 'my_projects', 'CodeSandboxOutlined', { noCache: true }),
      detail('itemList/:groupId', 'projectItemList', 'my_projects', PROJECT_MENU_ITEM_GROUP),
    ],
  }),
]);

const ORDERS = '/smartSale/ordermanagement';
const SMART_SALE = group('/smartSale', 'smartSale', 'smart_sale', 'ShoppingCartOutlined', [
  page('submitorder', 'submitOrder', 'ss_submit_order', 'FormOutlined'),
  page('ordermanagement', 'orderManagement', 'ss_order_management', 'ProfileOutlined'),
  detail(
    'orderDetail/:objId/:itemId/:itemName/:parentItemId/:parentobjId/:recordId/:parentName/:filterList/:parentHeaderColumnWidthMap',
    'orderDetail',
    'ss_order_management',
    ORDERS,
  ),
  page('salecontract', 'saleContract', 'ss_sale_contract', 'FileProtectOutlined'),
  page('saletemplate', 'saleTemplate', 'ss_sale_contract', 'FileTextOutlined'),
]);

const PRODUCTION = group(
  '/productionManagement',
  'productionManagement',
  'production_management',
  'BuildOutlined',
  [
    page('scheduling', 'productionScheduling', 'pm_scheduling', 'ScheduleOutlined'),
    // the plans to open the process of: pm_process reaches a plan without the scheduling
    page('process', 'productionProcessPlans', 'pm_process', 'ToolOutlined'),
    detail('process/:scheduleId/:status', 'productionProcess', 'pm_process', '/productionManagement/process'),
    page('reports', 'productionReports', 'pm_reports', 'BarChartOutlined'),
  ],
);

const ENTRIES = '/inventoryManagement/entryList';
const INVENTORY = group(
  '/inventoryManagement',
  'inventoryManagement',
  'inventory_management',
  'InboxOutlined',
  [
    page('inventoryList', 'inventoryList', 'im_inventory', 'UnorderedListOutlined'),
    page('entryList', 'entryList', 'im_entry', 'ImportOutlined'),
    detail('ownDetail/:entryId', 'entryOwnDetail', 'im_entry', ENTRIES),
    detail('simDetail/:entryId', 'entrySimDetail', 'im_entry', ENTRIES),
    detail('otherDetail/:entryId', 'entryOtherDetail', 'im_entry', ENTRIES),
    page('exitList', 'exitList', 'im_exit', 'ExportOutlined'),
    detail('exitDetail/:exitId/:exitStatus', 'exitDetail', 'im_exit', '/inventoryManagement/exitList'),
    page('categoryList', 'categoryList', 'im_category', 'AppstoreOutlined'),
    detail(
      'categoryDetail/:categoryId/:categoryName',
      'categoryDetail',
      'im_category',
      '/inventoryManagement/categoryList',
    ),
  ],
);

const DEVICE_MANAGEMENT = group(
  '/devicemanagement',
  'deviceManagement',
  'device_management',
  'ClusterOutlined',
  [
    page('devicelist', 'deviceList', 'dm_list', 'HddOutlined'),
    page('maintenance', 'deviceMaintenance', 'dm_maintenance', 'ToolOutlined'),
    page('devicemanagementpermission', 'deviceManagementPermission', 'dm_permission', 'SafetyOutlined'),
  ],
);

const DEVICE_COMMUNICATION = group(
  '/devicecommunication',
  'deviceCommunication',
  'cloud_device',
  'CloudOutlined',
  [
    page('device', 'cloudDevice', 'cd_device', 'DesktopOutlined'),
    page('simList', 'simList', 'cd_sim', 'CreditCardOutlined'),
    detail('simDetail/:simId', 'simDetail', 'cd_sim', '/devicecommunication/simList'),
    page('datapackage', 'dataPackage', 'cd_data_package', 'CodeOutlined'),
    detail(
      'DataPackageConfig/:dataPkgId',
      'dataPackageConfig',
      'cd_data_package',
      '/devicecommunication/datapackage',
    ),
    page('parsing', 'dataParsing', 'cd_parsing', 'FunctionOutlined'),
    detail('parsingconfig/:dataPkgId', 'parsingConfig', 'cd_parsing', '/devicecommunication/parsing'),
  ],
);

const SET_GAS = group('/setgas', 'setGas', 'gas_modulating', 'ExperimentOutlined', [
  page('productlist', 'gasProductList', 'gm_product', 'ShoppingOutlined'),
  detail('calculation/:selectProduct', 'gasCalculation', 'gm_component_cal', '/setgas/productlist'),
  page('puregas', 'pureGas', 'gm_pure_gas', 'BgColorsOutlined'),
  page('qualityctrl', 'qualityControl', 'gm_quality_ctrl', 'SafetyCertificateOutlined'),
  page('certandreport', 'certAndReport', 'gm_cert_report', 'FileDoneOutlined'),
  page('gaspropertieslist', 'gasProperties', 'gm_gas_info', 'TableOutlined'),
  page('referencematerial', 'referenceMaterial', 'gm_ref_material', 'BookOutlined'),
]);

/** coal, gas, steamconsume and steamoutput share one view (the web maps the names to it). */
const ENERGY = group('/energy', 'energy', 'energy_data_plat', 'ThunderboltOutlined', [
  page('coal', 'energyCoal', 'edp_coal', 'FireOutlined'),
  page('gas', 'energyGas', 'edp_gas', 'CloudOutlined'),
  page('steamconsume', 'energySteamConsume', 'edp_steam_consume', 'FallOutlined'),
  page('steamoutput', 'energySteamOutput', 'edp_steam_output', 'RiseOutlined'),
]);

const USER_MANAGEMENT = group('/userManagement', 'userManagement', 'user_management', 'TeamOutlined', [
  page('users', 'users', 'um_user', 'UserOutlined'),
  page('group', 'userGroup', 'um_user_group', 'UsergroupAddOutlined'),
  page('role', 'role', 'um_role', 'IdcardOutlined'),
  page('permitgrouprole', 'permitGroupRole', 'um_content_range', 'SafetyOutlined'),
  page('datapermitgroup', 'dataPermitGroup', 'ss_data_permit_group', 'LockOutlined'),
]);

const RESOURCES = group(
  '/accessmanagement',
  'accessManagement',
  'resource_management',
  'ApartmentOutlined',
  [page('customer', 'customer', 'rm_customer', 'ContactsOutlined')],
  { alwaysShow: true },
);

const TASKS = group('/taskmanagement', 'taskManagement', 'smart_assignment', 'RobotOutlined', [
  page('intelligentrules', 'intelligentRules', 'sa_rules', 'BranchesOutlined'),
  page('taskdefine', 'taskDefine', 'sa_task_define', 'ProfileOutlined'),
  detail('taskdefine/taskconfig/:taskId', 'taskConfig', 'sa_task_define', '/taskmanagement/taskdefine'),
  page('executabletask', 'executableTask', 'sa_executable_task', 'PlayCircleOutlined'),
  detail(
    'executabletask/ExecutableTaskConfig/:taskId/:accessMode',
    'executableTaskConfig',
    'sa_executable_task',
    '/taskmanagement/executabletask',
  ),
  page('scheduledtask', 'scheduledTask', 'sa_scheduled_task', 'FieldTimeOutlined'),
  page('tasklog', 'taskLog', 'sa_task_log', 'FileSearchOutlined'),
]);

/** Personal center: no code of its own; user info is open to every logged-in user. */
const PERSONAL_CENTER = group(
  '/user',
  'personalCenter',
  null,
  'UserOutlined',
  [
    page('myorder', 'myOrder', 'pc_my_order', 'ShoppingOutlined'),
    page('myassignmentanze', 'myAssignment', 'pc_my_assignment', 'CarryOutOutlined'),
    page('userinfo', 'userInfo', null, 'IdcardOutlined'),
  ],
  { redirect: '/user/userinfo' },
);

const SYS_SETTING = group('/sysSetting', 'sysSetting', 'sys_setting', 'SettingOutlined', [
  page('companyManagement', 'companyManagement', 'sys_company_info', 'BankOutlined'),
  page('tagSetting', 'tagSetting', 'sys_tag', 'TagsOutlined'),
  page('ioSocket', 'ioSocket', 'sys_io_socket', 'ApiOutlined'),
]);

/** System administrators only; the data-management hub links to the hidden system pages. */
const HUB = '/systemMaintenance/datamanagement';
const SYSTEM_MAINTENANCE = group(
  '/systemMaintenance',
  'systemMaintenance',
  'system_maintenance',
  'ControlOutlined',
  [
    page('datamanagement', 'dataManagement', 'system_data_management', 'DatabaseOutlined'),
    detail('systemcompany', 'systemCompany', 'system_company', HUB),
    detail('systemrole', 'systemRole', 'system_role', HUB),
    detail('systemuser', 'systemUser', 'system_user', HUB),
    detail('systemsditem', 'systemSdItem', 'system_sditem', HUB),
    detail('systemquartz', 'systemQuartz', 'system_quartz', HUB),
    detail('systememeter', 'systemEmeter', 'system_emeter', HUB),
    detail('systemgateway', 'systemGateway', 'system_gateway', HUB),
    detail('sysgatewaydetail/:id', 'sysGatewayDetail', 'system_gateway', '/systemMaintenance/systemgateway'),
    detail('systemsim', 'systemSim', 'system_sim', HUB),
    detail('syssimdetail/:simId', 'sysSimDetail', 'system_sim', '/systemMaintenance/systemsim'),
    detail('systemnss3dfw', 'systemNss3dfw', 'system_nss3dfw', HUB),
    detail('systememeterlog', 'systemEmeterLog', 'system_emeter_log', HUB),
    detail('systemtools', 'systemTools', 'system_tools', HUB),
    detail('systemwhiteip', 'systemWhiteIp', 'system_white_ip', HUB),
    page('acquistion', 'sysAcquisition', 'sys_m_acquistion', 'CloudDownloadOutlined'),
    page('log', 'sysLog', 'sys_m_log', 'FileTextOutlined'),
  ],
);

const TEST = group(
  '/test',
  'test',
  'test_pages',
  'BugOutlined',
  [
    page('boarddisplay', 'testBoardDisplay', 'test_pages', 'FundProjectionScreenOutlined'),
    detail('boarddisplayconfig/:boardPlayId', 'testBoardDisplayConfig', 'test_pages', '/test/boarddisplay'),
  ],
  { alwaysShow: true },
);

export const ASYNC_ROUTES: RouteEntry[] = [
  SMART_DATA_ROUTE,
  CLOUD_SURVEILLANCE,
  PROJECT,
  SMART_SALE,
  PRODUCTION,
  INVENTORY,
  DEVICE_MANAGEMENT,
  DEVICE_COMMUNICATION,
  SET_GAS,
  ENERGY,
  USER_MANAGEMENT,
  RESOURCES,
  TASKS,
  PERSONAL_CENTER,
  SYS_SETTING,
  SYSTEM_MAINTENANCE,
  ...STANDALONE_ROUTES,
  TEST,
];
