/**
 * Permission (menu) codes of seed point 6. A user's menuCode list is the union of the codes
 * of the roles they hold in their current company. Every route on the server and in the web
 * route table names exactly one of these, or none.
 */
export const MENU_CODE_GROUPS = {
  dataAndMonitoring: [
    'smart_data',
    'sd_capsule',
    'sd_board',
    'sd_board_play',
    'sd_item_group',
    'cloud_surveillance',
    'cs_info',
    'cs_rules',
    'cs_sditem_update',
  ],
  settingsAndDevices: [
    'sys_setting',
    'sys_company_info',
    'sys_tag',
    'sys_io_socket',
    'device_management',
    'dm_maintenance',
    'dm_list',
    'dm_permission',
  ],
  inventory: [
    'inventory_management',
    'im_inventory',
    'im_entry',
    'im_exit',
    'im_category',
    'im_production_log',
  ],
  gasAndEnergy: [
    'gas_modulating',
    'gm_product',
    'gm_component_cal',
    'gm_pure_gas',
    'gm_quality_ctrl',
    'gm_cert_report',
    'gm_gas_info',
    'gm_ref_material',
    'energy_data_plat',
    'edp_coal',
    'edp_gas',
    'edp_steam_consume',
    'edp_steam_output',
  ],
  usersAndResources: [
    'user_management',
    'um_user',
    'um_user_group',
    'um_role',
    'um_content_range',
    'ss_data_permit_group',
    'resource_management',
    'rm_customer',
  ],
  tasks: [
    'smart_assignment',
    'sa_rules',
    'sa_task_define',
    'sa_executable_task',
    'sa_scheduled_task',
    'sa_task_log',
  ],
  salesAndProduction: [
    'smart_sale',
    'ss_submit_order',
    'ss_order_management',
    'ss_sale_contract',
    'production_management',
    'pm_scheduling',
    'pm_process',
    'pm_reports',
  ],
  projectsAndCloudDevices: [
    'project_management',
    'my_projects',
    'cloud_device',
    'cd_device',
    'cd_sim',
    'cd_data_package',
    'cd_parsing',
  ],
  systemMaintenance: [
    'system_maintenance',
    'system_data_management',
    'system_company',
    'system_role',
    'system_user',
    'system_sditem',
    'system_quartz',
    'system_emeter',
    'system_gateway',
    'system_sim',
    'system_nss3dfw',
    'system_emeter_log',
    'system_tools',
    'system_white_ip',
    'sys_m_acquistion',
    'sys_m_log',
  ],
  personalAndTesting: ['pc_my_order', 'pc_my_assignment', 'test_pages'],
} as const;

export type MenuCodeGroup = keyof typeof MENU_CODE_GROUPS;
export type MenuCode = (typeof MENU_CODE_GROUPS)[MenuCodeGroup][number];

export const ALL_MENU_CODES: readonly MenuCode[] = Object.values(MENU_CODE_GROUPS).flat();

/** Codes only a system administrator may hold: the system maintenance area. */
export const SYSTEM_MENU_CODES: readonly MenuCode[] = MENU_CODE_GROUPS.systemMaintenance;

/** Codes a company administrator may grant inside a company (everything but system maintenance). */
export const COMPANY_MENU_CODES: readonly MenuCode[] = ALL_MENU_CODES.filter(
  (code) => !SYSTEM_MENU_CODES.includes(code),
);

const codeSet: ReadonlySet<string> = new Set(ALL_MENU_CODES);

export function isMenuCode(value: string): value is MenuCode {
  return codeSet.has(value);
}
