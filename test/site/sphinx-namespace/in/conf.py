project='NS'
