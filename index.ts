export { HaiPayApi } from './credentials/HaiPayApi.credentials';
export { HaiPay } from './nodes/HaiPay/HaiPay.node';
