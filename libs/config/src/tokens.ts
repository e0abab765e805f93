/** Injection token under which every Nest app provides the frozen AppConfig. */
export const APP_CONFIG = Symbol('APP_CONFIG');
