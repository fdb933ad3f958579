import { coinCollectApply } from './usdt-collect-apply';

/** `/usdc/collect/apply`: the same page's fields as USDT's (version2 coinpay gives both one table). */
export const usdcCollectApply = coinCollectApply();
