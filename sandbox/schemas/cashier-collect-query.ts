import { byOrderIdAndNo, type Schema } from './common';

/** `/global/cashier/collect/query`: unlike the currencies' order queries, the orderId and the orderNo are both required. */
export const cashierCollectQuery: Schema = byOrderIdAndNo;
