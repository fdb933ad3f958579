export { HaiPayApi } from './credentials/HaiPayApi.credentials';
