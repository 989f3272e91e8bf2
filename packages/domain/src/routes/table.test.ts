import { describe, expect, it } from 'vitest';
import { ALL_MENU_CODES, isMenuCode } from '../menu-codes';
import enBase from './locales/base/en.json';
import zhBase from './locales/base/zh.json';
import en from './locales/en.json';
import zh from './locales/zh.json';
import { ASYNC_ROUTES, BASE_ROUTES } from './table';
import { filterRoutes, flattenRoutes, type RouteEntry } from './types';

const ALL = flattenRoutes([...BASE_ROUTES, ...ASYNC_ROUTES]);
const ASYNC = flattenRoutes(ASYNC_ROUTES);

/** Every path of seed point 2, `{param}` written as `:param`. */
const SPEC_PATHS = [
  // base routes
  '/login',
  '/404',
  '/redirect/:path*',
  '/',
  '/home',
  // /smartdata
  '/smartdata',
  '/smartdata/test',
  '/smartdata/datacapsule',
  '/smartdata/Doctemplate',
  '/smartdata/richEditorTemplate/:itemId/:valueId/:itemName/:objId',
  '/smartdata/reportTemplate/:entityId/:name',
  '/smartdata/editTemplate/:entityId/:name',
  '/smartdata/datavalue/:itemId/:itemName/:itemType/:objId/:pid/:parentDirectory',
  '/smartdata/formpage/:itemId/:itemName/:objId',
  '/smartdata/chartpages/:itemId/:chartName/:typeCode/:chartId/:itemName',
  '/smartdata/ChartDialogs/:itemId/:chartName/:typeCode/:chartId/:itemName',
  '/smartdata/ChildValue/:objId/:itemId/:itemName/:parentItemId/:parentObjId/:recordId/:parentName/:filterList/:parentTitleColumn',
  '/smartdata/dataitem/config/:itemId/:itemName/:id',
  '/smartdata/contenttemplate',
  '/smartdata/chart/chartConfig/:itemId/:chartId/:itemName/:id',
  '/smartdata/itemgroup/config/:groupId',
  '/smartdata/dashboard3',
  '/smartdata/currentshowdashboard/:boardId',
  '/smartdata/dashboard3/EditBoard/:boardId/:boardName/:id',
  '/smartdata/boardconfig/:boardId/:templateCode',
  '/smartdata/dashboarddisplay',
  '/smartdata/configboardplay/:boardPlayId',
  '/smartdata/device/deviceconfig/:deviceId',
  '/smartdata/device/dtu/config/:deviceId',
  '/smartdata/electricMeterConfig/:electricMeterId/:electricMeterName',
  // top-level routes
  '/dashboardmarquee/:boardPlayId',
  '/editblankboard/:boardId/:boardName/:boardType',
  '/showdashboard/:boardId',
  '/dtuChart/:deviceId',
  '/nssFlowChart/:deviceId/:deviceName/:lang',
  '/nssFlowChart4D/:deviceId/:deviceName',
  '/releaseNote/:version/:typeId',
  '/flowChart/:deviceId/:deviceName',
  '/FlowChart6E/:deviceId/:deviceName',
  '/upgradeCfg/:deviceId/:deviceName',
  '/dataflow/:deviceId/:deviceType/:deviceName',
  '/editConfigurationTool/:deviceId',
  '/editConfigurationTool1/:deviceId',
  '/showConfigurationTool/:deviceId',
  '/NssVisualization/:deviceId',
  '/nssPreview/:deviceId',
  '/standardElectricMeter/:electricMeterId/:electricMeterName',
  '/virtualElectricMeter/:electricMeterId/:electricMeterName',
  '/comDebug',
  '/previewReport/:entityId',
  '/standardReport/:year/:month/:electricMeterId/:electricMeterName',
  '/virtualReport/:year/:month/:electricMeterId/:electricMeterName',
  '/inverterDashboard/:inverterId/:inverterName',
  '/operationLog/:deviceId/:productId/:serialNumber/:typeId/:deviceName',
  '/upgradeVersion/:nextVersion/:currentVersion/:serialNumber',
  '/intelligentrules/AddRule',
  '/alertdashboard',
  '/big_screen/:boardPlayId',
  // /taskmanagement
  '/taskmanagement',
  '/taskmanagement/intelligentrules',
  '/taskmanagement/taskdefine',
  '/taskmanagement/taskdefine/taskconfig/:taskId',
  '/taskmanagement/executabletask',
  '/taskmanagement/executabletask/ExecutableTaskConfig/:taskId/:accessMode',
  '/taskmanagement/scheduledtask',
  '/taskmanagement/tasklog',
  // /cloudSurveillance
  '/cloudSurveillance',
  '/cloudSurveillance/alertLog',
  '/cloudSurveillance/alertRule',
  '/cloudSurveillance/dataUpdate',
  // /sysSetting
  '/sysSetting',
  '/sysSetting/companyManagement',
  '/sysSetting/tagSetting',
  '/sysSetting/ioSocket',
  // /devicemanagement
  '/devicemanagement',
  '/devicemanagement/maintenance',
  '/devicemanagement/devicelist',
  '/devicemanagement/devicemanagementpermission',
  // /inventoryManagement
  '/inventoryManagement',
  '/inventoryManagement/inventoryList',
  '/inventoryManagement/entryList',
  '/inventoryManagement/ownDetail/:entryId',
  '/inventoryManagement/simDetail/:entryId',
  '/inventoryManagement/otherDetail/:entryId',
  '/inventoryManagement/exitList',
  '/inventoryManagement/exitDetail/:exitId/:exitStatus',
  '/inventoryManagement/categoryList',
  '/inventoryManagement/categoryDetail/:categoryId/:categoryName',
  // /setgas
  '/setgas',
  '/setgas/productlist',
  '/setgas/calculation/:selectProduct',
  '/setgas/puregas',
  '/setgas/qualityctrl',
  '/setgas/certandreport',
  '/setgas/gaspropertieslist',
  '/setgas/referencematerial',
  // /energy
  '/energy',
  '/energy/coal',
  '/energy/gas',
  '/energy/steamconsume',
  '/energy/steamoutput',
  // /userManagement
  '/userManagement',
  '/userManagement/users',
  '/userManagement/group',
  '/userManagement/role',
  '/userManagement/permitgrouprole',
  '/userManagement/datapermitgroup',
  // /accessmanagement
  '/accessmanagement',
  '/accessmanagement/customer',
  // /user (personal center)
  '/user',
  '/user/myorder',
  '/user/myassignmentanze',
  '/user/userinfo',
  // /systemMaintenance
  '/systemMaintenance',
  '/systemMaintenance/datamanagement',
  '/systemMaintenance/systemcompany',
  '/systemMaintenance/systemrole',
  '/systemMaintenance/systemuser',
  '/systemMaintenance/systemsditem',
  '/systemMaintenance/systemquartz',
  '/systemMaintenance/systememeter',
  '/systemMaintenance/systemgateway',
  '/systemMaintenance/sysgatewaydetail/:id',
  '/systemMaintenance/systemsim',
  '/systemMaintenance/syssimdetail/:simId',
  '/systemMaintenance/systemnss3dfw',
  '/systemMaintenance/systememeterlog',
  '/systemMaintenance/systemtools',
  '/systemMaintenance/systemwhiteip',
  '/systemMaintenance/acquistion',
  '/systemMaintenance/log',
  // /devicecommunication
  '/devicecommunication',
  '/devicecommunication/device',
  '/devicecommunication/simList',
  '/devicecommunication/simDetail/:simId',
  '/devicecommunication/datapackage',
  '/devicecommunication/DataPackageConfig/:dataPkgId',
  '/devicecommunication/parsing',
  '/devicecommunication/parsingconfig/:dataPkgId',
  // /smartSale
  '/smartSale',
  '/smartSale/submitorder',
  '/smartSale/ordermanagement',
  '/smartSale/orderDetail/:objId/:itemId/:itemName/:parentItemId/:parentobjId/:recordId/:parentName/:filterList/:parentHeaderColumnWidthMap',
  '/smartSale/salecontract',
  '/smartSale/saletemplate',
  // /productionManagement
  '/productionManagement',
  '/productionManagement/scheduling',
  '/productionManagement/process',
  '/productionManagement/process/:scheduleId/:status',
  '/productionManagement/reports',
  // /project
  '/project',
  '/project/projectList',
  '/project/itemgroup',
  '/project/projectConfig/:projectId/:itemName',
  '/project/projectMenu/:projectId',
  '/project/projectMenu/:projectId/overview',
  '/project/projectMenu/:projectId/itemGroup',
  '/project/projectMenu/:projectId/task',
  '/project/projectMenu/:projectId/3DModel',
  '/project/projectMenu/:projectId/itemList/:groupId',
  '/project/projectMenu/:projectId/home',
  // /test
  '/test',
  '/test/boarddisplay',
  '/test/boarddisplayconfig/:boardPlayId',
];

const names = (routes: readonly RouteEntry[]) => routes.map((route) => route.name);
const byPath = (routes: readonly RouteEntry[], path: string) => routes.find((route) => route.path === path);

describe('route table', () => {
  it('has unique names and titles menu.<name>', () => {
    const all = names(ALL);
    expect(new Set(all).size).toBe(all.length);
    for (const route of ALL) {
      expect(route.name).toMatch(/^[a-z][a-zA-Z0-9]*$/);
      expect(route.meta?.title).toBe(`menu.${route.name}`);
    }
  });

  it('uses valid menu codes only', () => {
    for (const route of ALL) {
      const permission = route.meta?.permission;
      if (permission != null) expect(isMenuCode(permission), `${route.name}: ${permission}`).toBe(true);
    }
  });

  it('gives every async route a permission except the personal center and user info', () => {
    const open = ASYNC.filter((route) => route.meta?.permission == null).map((route) => route.fullPath);
    expect(open.sort()).toEqual(['/user', '/user/userinfo']);
  });

  it('has a zh and an en title for every route and a label for every menu code, nothing more', () => {
    const routeNames = [...names(ALL), 'productTitle'].sort();
    const codes = [...ALL_MENU_CODES].sort();
    for (const [base, rest] of [
      [zhBase, zh],
      [enBase, en],
    ] as const) {
      expect(Object.keys(base)).toEqual(['menu']);
      expect(Object.keys(rest).sort()).toEqual(['menu', 'menuCode']);
      // each title in one of the two files, never in both
      const baseNames = Object.keys(base.menu);
      expect(baseNames.filter((name) => name in rest.menu)).toEqual([]);
      expect([...baseNames, ...Object.keys(rest.menu)].sort()).toEqual(routeNames);
      expect(Object.keys(rest.menuCode).sort()).toEqual(codes);
      const texts = [
        ...Object.values(base.menu),
        ...Object.values(rest.menu),
        ...Object.values(rest.menuCode),
      ];
      for (const text of texts) expect(typeof text === 'string' && text.trim().length > 0).toBe(true);
    }
    expect(zhBase.menu.productTitle).toBe('智慧数据平台');
    expect(enBase.menu.productTitle).toBe('Smart Data Platform');
    expect(zhBase.menu.home).toBe('首页');
  });

  it('keeps the titles a page without login shows in the base files: the base routes and the product', () => {
    const base = [...names(flattenRoutes(BASE_ROUTES)), 'productTitle'].sort();
    expect(Object.keys(zhBase.menu).sort()).toEqual(base);
    expect(Object.keys(enBase.menu).sort()).toEqual(base);
  });

  it('contains every path of the spec and no other', () => {
    const paths = ALL.map((route) => route.fullPath);
    expect(new Set(paths).size).toBe(paths.length);
    expect([...paths].sort()).toEqual([...SPEC_PATHS].sort());
  });

  it('gives menu-visible entries an icon', () => {
    const visible = flattenRoutes(BASE_ROUTES.filter((route) => !route.hidden)).concat(
      flattenRoutes(ASYNC_ROUTES.filter((route) => !route.hidden)).filter(
        (route) => !route.hidden && !route.fullPath.includes(':'),
      ),
    );
    for (const route of visible)
      expect(route.meta?.icon, route.fullPath).toMatch(/^[A-Z][A-Za-z0-9]*Outlined$/);
  });

  it('points every hidden async route at an existing full path with activeMenu', () => {
    const paths = new Set(ALL.map((route) => route.fullPath));
    for (const route of ASYNC.filter((r) => r.hidden)) {
      const activeMenu = route.meta?.activeMenu;
      expect(activeMenu, route.fullPath).toBeDefined();
      expect(paths.has(activeMenu!), `${route.fullPath} -> ${activeMenu}`).toBe(true);
      expect(activeMenu).not.toBe(route.fullPath);
    }
  });

  it('marks views with path parameters as not cached', () => {
    for (const route of ALL.filter((r) => r.path.includes(':') && !r.children)) {
      expect(route.meta?.noCache, route.fullPath).toBe(true);
    }
  });

  it('pins home and redirects / to it', () => {
    expect(byPath(BASE_ROUTES, '/home')?.meta).toMatchObject({ affix: true, icon: 'HomeOutlined' });
    expect(byPath(BASE_ROUTES, '/')?.redirect).toBe('/home');
  });

  it('orders the sidebar groups as the top menu', () => {
    const groups = ASYNC_ROUTES.filter((route) => !route.hidden).map((route) => route.path);
    expect(groups[0]).toBe('/smartdata');
    expect(groups.at(-1)).toBe('/test');
    expect(groups.indexOf('/user')).toBeLessThan(groups.indexOf('/sysSetting'));
    expect(groups.indexOf('/sysSetting')).toBeLessThan(groups.indexOf('/systemMaintenance'));
    expect(groups.at(-2)).toBe('/systemMaintenance');
    expect(ASYNC_ROUTES.at(-1)?.meta?.permission).toBe('test_pages');
  });
});

describe('filterRoutes on the real table', () => {
  it('keeps only what smart_data + sd_capsule allow', () => {
    const kept = filterRoutes([...BASE_ROUTES, ...ASYNC_ROUTES], ['smart_data', 'sd_capsule']);
    expect(byPath(kept, '/home')).toBeDefined();
    expect(byPath(kept, '/userManagement')).toBeUndefined();
    expect(byPath(kept, '/systemMaintenance')).toBeUndefined();

    const smartData = byPath(kept, '/smartdata');
    expect(smartData).toBeDefined();
    const children = smartData?.children ?? [];
    expect(children.every((child) => child.meta?.permission === 'sd_capsule')).toBe(true);
    expect(byPath(children, 'datacapsule')).toBeDefined();
    expect(byPath(children, 'dashboard3')).toBeUndefined();
    expect(byPath(children, 'dataitem/config/:itemId/:itemName/:id')).toBeDefined();

    const personal = byPath(kept, '/user');
    expect(personal?.children?.map((child) => child.path)).toEqual(['userinfo']);

    const topLevel = kept.filter((route) => !route.hidden).map((route) => route.path);
    expect(topLevel).toEqual(['/home', '/smartdata', '/user']);
  });

  it('keeps everything with all menu codes', () => {
    const kept = filterRoutes(ASYNC_ROUTES, ALL_MENU_CODES);
    expect(flattenRoutes(kept).map((route) => route.fullPath)).toEqual(ASYNC.map((route) => route.fullPath));
  });
});
