export { HaiPayApi } from './credentials/HaiPayApi.credentials';
export { HaiPay } from './nodes/HaiPay/HaiPay.node';
export { HaiPayTrigger } from './nodes/HaiPayTrigger/HaiPayTrigger.node';
